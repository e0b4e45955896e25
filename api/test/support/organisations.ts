/** Business accounts in the e2e suites: their routes, a sign-up's body, a fresh KRA PIN. */
import { randomInt } from 'node:crypto';
import type { OrganisationKind, OrganisationView } from '@spc/shared-contracts';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { AppConfig } from '../../src/config/app-config';
import { APP_CONFIG } from '../../src/config/config.module';
import { bearer, uniqueEmail, type Session } from './identity';
import { decoded } from './mail';
import { waitFor } from './wait';
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
  const code = await invitationCode(t, invited.body.invitation._id as string);
  const accepted = await t
    .http()
    .post(`/api/organisation-invitations/${invited.body.invitation._id}/accept`)
    .set(bearer(person.accessToken))
    .send({ code });
  if (accepted.status !== 201)
    throw new Error(`acceptance failed: ${accepted.status} ${JSON.stringify(accepted.body)}`);
  return accepted.body.organisation as OrganisationView;
}

/**
 * The code of an invitation, read from the link of the e-mail sent for it (the test app's outbox),
 * as the person invited opens it: `…/user/organisation?invitation=<id>&code=<code>`.
 */
export async function invitationCode(t: TestApp, invitationId: string): Promise<string> {
  const dataDir = path.resolve(t.app.get<AppConfig>(APP_CONFIG).dataDir);
  const link = new RegExp(`invitation=${invitationId}&code=([A-Za-z0-9_-]+)`);
  // Only the invitations' files are read (named by their subject): the suites share one outbox.
  const read = () => {
    const dir = path.join(dataDir, 'outbox');
    const files = existsSync(dir)
      ? readdirSync(dir).filter((f) => f.includes('-invitation-to-buy-for-'))
      : [];
    return files
      .map((f) => decoded(readFileSync(path.join(dir, f), 'utf8')))
      .filter((m) => link.test(m));
  };
  const mails = await waitFor(
    async () => read(),
    (found) => found.length > 0,
    15_000,
  );
  if (!mails.length) throw new Error(`no invitation e-mail for ${invitationId}`);
  return link.exec(mails.at(-1)!)![1]!;
}
