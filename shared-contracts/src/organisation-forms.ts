/**
 * The organisation forms of both apps (sign-up, the shop's edit, terms, price list, inviting a
 * person; a quotation's acceptance and a message on it), with the messages the API gives. The API's DTOs enforce the same rules (a test feeds
 * both the same samples).
 */
import { z } from './zod';
import { LIMITS, OBJECT_ID_PATTERN, PHONE_PATTERN, TEXT_LIMITS } from './constants';
import { VALIDATION_MESSAGES as M } from './messages';
import {
  KRA_PIN_MESSAGE,
  KRA_PIN_PATTERN,
  normaliseKraPin,
  ORGANISATION_KINDS,
  ORGANISATION_LIMITS as L,
  ORGANISATION_MESSAGES as OM,
  ORGANISATION_ROLES,
} from './organisations';
import { INVOICING_MODES } from './invoices';
import { QUOTATION_LIMITS as QL, QUOTATION_MESSAGES as QM } from './quotations';

const trimmed = () => z.string().trim();

export const kraPinSchema = z
  .string({ error: KRA_PIN_MESSAGE })
  .transform(normaliseKraPin)
  .pipe(z.string().regex(KRA_PIN_PATTERN, KRA_PIN_MESSAGE));

export const organisationContactSchema = z.object({
  name: trimmed()
    .min(1, OM.contactNameRequired)
    .max(L.contactName, `A contact's name must be at most ${L.contactName} characters`),
  phone: trimmed()
    .min(1, M.phoneRequired)
    .max(LIMITS.checkoutPhoneMaxLength, M.phoneInvalid)
    .regex(PHONE_PATTERN, M.phoneInvalid),
  email: trimmed()
    .min(1, M.emailRequired)
    .max(TEXT_LIMITS.email, M.emailInvalid)
    .pipe(z.email(M.emailInvalid)),
});

const name = trimmed()
  .min(1, OM.nameRequired)
  .max(L.name, `The organisation's name must be at most ${L.name} characters`);
const kind = z.enum(ORGANISATION_KINDS, { error: OM.kindInvalid });

/** `POST /api/organisations`: a customer's sign-up, or staff creating one from a call. */
export const organisationSignUpSchema = z.object({
  name,
  kraPin: kraPinSchema,
  kind,
  billingContact: organisationContactSchema,
  deliveryContact: organisationContactSchema,
});
export type OrganisationSignUpForm = z.input<typeof organisationSignUpSchema>;

/** `PATCH /api/organisations/:id`: any of these; name, KRA PIN and kind by staff and admins only. */
export const organisationUpdateSchema = organisationSignUpSchema.partial();

const wholeNumber = (message: string, max: number) =>
  z.number({ error: message }).int(message).min(0, message).max(max, message);

/** `PUT /api/organisations/:id/terms` (admins). */
export const organisationTermsSchema = z.object({
  paymentDays: wholeNumber(OM.paymentDays, L.paymentDaysMax),
  creditLimit: wholeNumber(OM.creditLimit, L.creditLimitMax),
  onAccount: z.boolean({ error: OM.onAccount }),
  /** Absent: the organisation keeps how it is invoiced. */
  invoicing: z.enum(INVOICING_MODES, { error: OM.invoicing }).optional(),
});

export const priceListEntrySchema = z.object({
  productId: z.string().regex(OBJECT_ID_PATTERN, 'productId must be the id of a product'),
  unitId: z.string().regex(OBJECT_ID_PATTERN, 'unitId must be the id of one of its units'),
  price: wholeNumber(OM.price, L.priceMax),
});

/** `PUT /api/organisations/:id/price-list` (admins); the API also checks each product and unit. */
export const priceListSchema = z
  .object({
    discountPercent: wholeNumber(OM.discount, 100),
    prices: z.array(priceListEntrySchema).max(L.priceListEntries, OM.priceListTooLong),
  })
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.prices.forEach((p, i) => {
      const key = `${p.productId.toLowerCase()}:${p.unitId.toLowerCase()}`;
      if (seen.has(key))
        ctx.addIssue({ code: 'custom', path: ['prices', i], message: OM.priceListDuplicate });
      seen.add(key);
    });
  });

/** `POST /api/organisations/:id/invitations`: a person asked to buy for it, by their e-mail. */
export const organisationInvitationSchema = z.object({
  email: trimmed()
    .min(1, M.emailRequired)
    .max(TEXT_LIMITS.email, M.emailInvalid)
    .pipe(z.email(M.emailInvalid)),
  role: z.enum(ORGANISATION_ROLES, { error: OM.roleInvalid }),
});

/** `PATCH /api/organisations/:id/people/:accountId`. */
export const organisationRoleSchema = z.object({
  role: z.enum(ORGANISATION_ROLES, { error: OM.roleInvalid }),
});

// What an organisation's people (and staff on their word) answer a quotation with (issue 42).

/** Accepting a version: its LPO number. */
export const quotationAcceptSchema = z.object({
  lpoNumber: trimmed()
    .min(1, QM.lpoRequired)
    .max(QL.lpoNumber, `The LPO number must be at most ${QL.lpoNumber} characters`),
});
export type QuotationAcceptForm = z.input<typeof quotationAcceptSchema>;

/** A message in the thread (also what asking for changes says). */
export const quotationMessageSchema = z.object({
  text: trimmed()
    .min(1, QM.messageRequired)
    .max(QL.message, `A message must be at most ${QL.message} characters`),
});
export type QuotationMessageForm = z.input<typeof quotationMessageSchema>;
