import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Paper, Stack, Text, Textarea } from '@mantine/core';
import {
  formatDateTime,
  QUOTATION_LIMITS,
  quotationMessageSchema,
  type QuotationMessageForm,
  type QuotationMessageView,
} from '@spc/shared-contracts';
import { useForm } from 'react-hook-form';

/** The messages between the organisation and the shop, and the shop's reply box. */
export function QuotationThread({
  messages,
  pending,
  onReply,
}: {
  messages: QuotationMessageView[];
  pending?: boolean;
  onReply: (text: string) => Promise<unknown>;
}) {
  const form = useForm<QuotationMessageForm>({
    resolver: zodResolver(quotationMessageSchema),
    defaultValues: { text: '' },
  });
  const submit = form.handleSubmit(async ({ text }) => {
    await onReply(text.trim())
      .then(() => form.reset({ text: '' }))
      .catch(() => undefined);
  });
  return (
    <Stack gap="xs">
      {messages.length === 0 && (
        <Text size="sm" c="dimmed">
          No messages yet.
        </Text>
      )}
      <Stack gap="xs" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {messages.map((m) => (
          <Paper
            key={m._id}
            component="li"
            withBorder
            p="xs"
            bg={m.from === 'shop' ? 'var(--mantine-color-green-light)' : undefined}
            aria-label={`${m.authorName}, ${m.from === 'shop' ? 'the shop' : 'the organisation'}`}
          >
            <Text size="xs" c="dimmed">
              {m.authorName} ({m.from === 'shop' ? 'shop' : 'organisation'}) ·{' '}
              {formatDateTime(m.at)}
            </Text>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {m.text}
            </Text>
          </Paper>
        ))}
      </Stack>
      <form onSubmit={submit} noValidate aria-label="Reply to the organisation">
        <Stack gap="xs">
          <Textarea
            label="Reply"
            autosize
            minRows={2}
            maxLength={QUOTATION_LIMITS.message}
            {...form.register('text')}
            error={form.formState.errors.text?.message}
            disabled={pending}
          />
          <Button type="submit" loading={pending} style={{ alignSelf: 'flex-start' }}>
            Send reply
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
