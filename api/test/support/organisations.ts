/** Business accounts in the e2e suites: their routes, a sign-up's body, a fresh KRA PIN. */
import { randomInt } from 'node:crypto';
import type { OrganisationKind, OrganisationView } from '@spc/shared-contracts';
import { bearer, uniqueEmail, type Session } from './identity';
import type { TestApp } from './test-app';

/** The organisation routes as the OpenAPI document names them; organisations.e2e-spec.ts tests who may call them. */
export const ORGANISATION_ROUTES = [
  'POST /api/organisations',
  'GET /api/organisations',
  'GET /api/organisations/mine',
  'GET /api/organisations/{id}',
  'PATCH /api/organisations/{id}',
  'POST /api/organisations/{id}/approve',
  'POST /api/organisations/{id}/suspend',
  'POST /api/organisations/{id}/decline',
  'PUT /api/organisations/{id}/terms',
  'PUT /api/organisations/{id}/price-list',
  'POST /api/organisations/{id}/invitations',
  'DELETE /api/organisations/{id}/invitations/{invitationId}',
  'PATCH /api/organisations/{id}/people/{accountId}',
  'DELETE /api/organisations/{id}/people/{accountId}',
  'GET /api/organisation-invitations',
  'POST /api/organisation-invitations/{id}/accept',
  'POST /api/organisation-invitations/{id}/decline',
] as const;
export type OrganisationRoute = (typeof ORGANISATION_ROUTES)[number];

/** A KRA PIN nobody has registered yet: P, 9 digits, a letter. */
export function uniqueKraPin(first: 'A' | 'P' = 'P'): string {
  const digits = String(randomInt(0, 1_000_000_000)).padStart(9, '0');
  return `${first}${digits}${String.fromCharCode(65 + randomInt(0, 26))}`;
}

export interface ContactBody {
  name: string;
  phone: string;
  email: string;
}

export interface OrganisationBody {
  name: string;
  kraPin: string;
  kind: OrganisationKind;
  billingContact: ContactBody;
  deliveryContact: ContactBody;
}

/** A sign-up's body: a county with its procurement office and a depot, unless told otherwise. */
export function organisationBody(overrides: Partial<OrganisationBody> = {}): OrganisationBody {
  return {
    name: 'Kiambu County Government',
    kraPin: uniqueKraPin(),
    kind: 'county',
    billingContact: {
      name: 'Grace Wambui',
      phone: '0712345678',
      email: uniqueEmail('procurement'),
    },
    deliveryContact: {
      name: 'Joseph Kariuki',
      phone: '+254722000111',
      email: uniqueEmail('depot'),
    },
    ...overrides,
  };
}

/** Signs an organisation up as `session` (a customer: pending, they its approver); its view. */
export async function signUpOrganisation(
  t: TestApp,
  session: Session,
  overrides: Partial<OrganisationBody> = {},
): Promise<OrganisationView> {
  const res = await t
    .http()
    .post('/api/organisations')
    .set(bearer(session.accessToken))
    .send(organisationBody(overrides));
  if (res.status !== 201)
    throw new Error(`organisation sign-up failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.organisation as OrganisationView;
}

/**
 * Brings `person` into the organisation in `role`: invited by `by` (an approver, staff or an
 * admin) by their e-mail, then accepted by them.
 */
export async function addPerson(
  t: TestApp,
  organisationId: string,
  by: Session,
  person: Session,
  role: 'buyer' | 'approver',
): Promise<OrganisationView> {
  const invited = await t
    .http()
    .post(`/api/organisations/${organisationId}/invitations`)
    .set(bearer(by.accessToken))
    .send({ email: person.user.email, role });
  if (invited.status !== 201)
    throw new Error(`invitation failed: ${invited.status} ${JSON.stringify(invited.body)}`);
  const accepted = await t
    .http()
    .post(`/api/organisation-invitations/${invited.body.invitation._id}/accept`)
    .set(bearer(person.accessToken));
  if (accepted.status !== 201)
    throw new Error(`acceptance failed: ${accepted.status} ${JSON.stringify(accepted.body)}`);
  return accepted.body.organisation as OrganisationView;
}
