import { Button, Group, NumberInput, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { ListState } from '../../../components/list-state';
import {
  usePrivacySettings,
  useSavePrivacySettings,
  type PrivacySettings,
  type PrivacySettingsChanges,
} from '../api/privacy';

const PERIODS: { key: keyof PrivacySettingsChanges; label: string; min: number; max: number }[] = [
  { key: 'taxRetentionYears', label: 'Orders, payments, refunds (years)', min: 5, max: 30 },
  { key: 'smsOutboxDays', label: 'Text messages sent (days)', min: 1, max: 3650 },
  { key: 'mailLogDays', label: 'E-mails sent (days)', min: 1, max: 3650 },
  { key: 'contactMessageDays', label: 'Contact-form messages (days)', min: 1, max: 3650 },
  { key: 'requestDueDays', label: "Days to answer a guest's request", min: 1, max: 30 },
];

function SettingsForm({ settings }: { settings: PrivacySettings }) {
  const save = useSavePrivacySettings();
  const { updatedAt: _updatedAt, ...initial } = settings;
  const [form, setForm] = useState<PrivacySettingsChanges>(initial);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(form);
      }}
    >
      <Stack>
        <TextInput
          label="Data controller (the shop's name)"
          value={form.controllerName ?? ''}
          onChange={(e) => setForm({ ...form, controllerName: e.currentTarget.value })}
        />
        <Textarea
          label="Privacy notice"
          description="## a heading, - a list item, **bold**. {taxRetentionYears}, {smsOutboxDays}, {mailLogDays}, {contactMessageDays} and {requestDueDays} show the periods below."
          autosize
          minRows={10}
          maxRows={30}
          value={form.noticeText ?? ''}
          onChange={(e) => setForm({ ...form, noticeText: e.currentTarget.value })}
        />
        <Text fw={600}>How long records are kept</Text>
        <Text size="sm" c="dimmed">
          Text messages, e-mails and contact messages older than their period are deleted by the
          database (and so are gone from later backups). Tax records: at least 5 years (Tax
          Procedures Act, s. 23).
        </Text>
        <Group grow align="flex-start" wrap="wrap">
          {PERIODS.map((p) => (
            <NumberInput
              key={p.key}
              label={p.label}
              min={p.min}
              max={p.max}
              allowDecimal={false}
              miw={200}
              value={(form[p.key] as number | undefined) ?? ''}
              onChange={(v) => setForm({ ...form, [p.key]: typeof v === 'number' ? v : undefined })}
            />
          ))}
        </Group>
        <Group>
          <Button type="submit" loading={save.isPending}>
            save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** /admin/privacy: the privacy notice's text and the retention periods. */
export function PrivacySettingsRoute() {
  const query = usePrivacySettings();
  return (
    <Stack maw={760}>
      <Title order={2}>Privacy</Title>
      <ListState isLoading={query.isPending} isError={query.isError} isEmpty={false} emptyText="" />
      {query.data && <SettingsForm key={query.data.updatedAt ?? 'default'} settings={query.data} />}
    </Stack>
  );
}
