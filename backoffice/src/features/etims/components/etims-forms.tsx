import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Checkbox, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import {
  BACKOFFICE_MESSAGES,
  etimsResendBody,
  etimsResendSchema,
  etimsSignatureBody,
  etimsSignatureSchema,
  type EtimsDocumentView,
  type EtimsResendForm,
  type EtimsSignatureForm,
} from '@spc/shared-contracts';
import { errorMessage } from '@spc/shared-contracts/web-client';
import type { ReactNode } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useResendEtimsDocument } from '../api/resend-etims-document';
import { useSignEtimsDocument } from '../api/sign-etims-document';

/** The API's refusal, under the form that was sent. */
function Refusal({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <Alert color="red" role="alert" variant="light">
      {errorMessage(error, BACKOFFICE_MESSAGES.somethingWentWrong)}
    </Alert>
  );
}

/**
 * The buyer's KRA PIN or name fixed, or the buyer removed (KRA does not know the PIN and the buyer
 * has no other: a sale to no one named), then the document sent again under its number. Blank
 * fields change nothing.
 */
export function ResendForm({
  document,
  onDone,
}: {
  document: EtimsDocumentView;
  onDone: () => void;
}) {
  const resend = useResendEtimsDocument();
  const form = useForm<EtimsResendForm, unknown, ReturnType<typeof etimsResendSchema.parse>>({
    resolver: zodResolver(etimsResendSchema),
    defaultValues: {
      buyerPin: document.buyer?.pin ?? '',
      buyerName: document.buyer?.name ?? '',
      removeBuyer: false,
    },
  });
  const e = form.formState.errors;
  const removing = useWatch({ control: form.control, name: 'removeBuyer' });
  const remove = (checked: boolean) => {
    // The fields as they were (what the clerk typed is not sent): nothing in them to refuse.
    form.reset({ ...form.formState.defaultValues, removeBuyer: checked });
  };
  const submit = form.handleSubmit((values) =>
    resend.mutate(
      { source: document.source, body: etimsResendBody(values) },
      { onSuccess: onDone },
    ),
  );
  return (
    <form onSubmit={submit} noValidate aria-label={`Resend ${document.trdInvcNo}`}>
      <Stack gap="sm">
        {document.lastMessage && (
          <Text size="sm" c="dimmed">
            KRA said: {document.lastMessage}
          </Text>
        )}
        <TextInput
          label="Buyer's KRA PIN"
          description="The letter A or P, 9 digits and a letter"
          placeholder="P051234567X"
          autoComplete="off"
          {...form.register('buyerPin')}
          error={e.buyerPin?.message}
          disabled={resend.isPending || removing}
        />
        <TextInput
          label="Buyer's name"
          {...form.register('buyerName')}
          error={e.buyerName?.message}
          disabled={resend.isPending || removing}
        />
        {/* An invoice on account (and its credit notes) names who owes it: its PIN is corrected, never removed. */}
        {document.buyer && !/^(invoice|creditnote):/.test(document.source) && (
          <Checkbox
            label="Remove the buyer: KRA does not know their PIN and they have no other"
            description="Sent as a sale to no one named; their PIN and name leave the document"
            checked={removing}
            onChange={(event) => remove(event.currentTarget.checked)}
            disabled={resend.isPending}
          />
        )}
        <Refusal error={resend.error} />
        <Group justify="flex-end">
          <Button type="submit" loading={resend.isPending}>
            Resend to KRA
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * KRA answered a number it had already without its signature: a clerk looks the invoice up on
 * KRA's eTIMS portal and copies what it shows here.
 */
export function SignatureForm({
  document,
  onDone,
}: {
  document: EtimsDocumentView;
  onDone: () => void;
}) {
  const sign = useSignEtimsDocument();
  const form = useForm<EtimsSignatureForm, unknown, ReturnType<typeof etimsSignatureSchema.parse>>({
    resolver: zodResolver(etimsSignatureSchema),
    defaultValues: { cuInvoiceNumber: '', rcptSign: '', signedAt: '', intrlData: '' },
  });
  const e = form.formState.errors;
  const submit = form.handleSubmit((values) =>
    sign.mutate(
      { source: document.source, body: etimsSignatureBody(values) },
      { onSuccess: onDone },
    ),
  );
  return (
    <form onSubmit={submit} noValidate aria-label={`Signature of ${document.trdInvcNo}`}>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Find invoice {document.trdInvcNo} (eTIMS number {document.invcNo}) on KRA’s eTIMS portal
          and copy what it shows.
        </Text>
        <TextInput
          label="CU invoice number"
          placeholder="KRACU0100000001/12"
          autoComplete="off"
          {...form.register('cuInvoiceNumber')}
          error={e.cuInvoiceNumber?.message}
          disabled={sign.isPending}
        />
        <TextInput
          label="Receipt signature"
          autoComplete="off"
          {...form.register('rcptSign')}
          error={e.rcptSign?.message}
          disabled={sign.isPending}
        />
        <TextInput
          type="datetime-local"
          label="Signed at (Nairobi time, as the portal shows it)"
          {...form.register('signedAt')}
          error={e.signedAt?.message}
          disabled={sign.isPending}
        />
        <TextInput
          label="Internal data (if the portal shows it)"
          autoComplete="off"
          {...form.register('intrlData')}
          error={e.intrlData?.message}
          disabled={sign.isPending}
        />
        <Refusal error={sign.error} />
        <Group justify="flex-end">
          <Button type="submit" loading={sign.isPending}>
            Save signature
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** A form in a modal, titled for its document. */
export function EtimsFormModal({
  title,
  opened,
  onClose,
  children,
}: {
  title: string;
  opened: boolean;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      {children}
    </Modal>
  );
}
