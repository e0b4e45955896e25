/**
 * An invitation is taken up by an account, not by the mailbox it was sent to: an account's e-mail is
 * not verified at sign-up, so whoever registered a person's address first receives every invitation
 * sent to it and accepts it without ever reading the mail.
 */
import type { OrganisationView } from '@spc/shared-contracts';
import { bearer, registerCustomer, UNTHROTTLED } from './support/identity';
import { signUpOrganisation } from './support/organisations';
import { createTestApp, type TestApp } from './support/test-app';

describe('an invitation sent to an address someone else registered', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ name: 'org_squat', env: UNTHROTTLED });
  });
  afterAll(() => t.close());

  it('cannot be accepted by an account that never read the e-mail', async () => {
    const approver = await registerCustomer(t);
    const org = await signUpOrganisation(t, approver, { name: 'Murang’a County Government' });
    // The county's procurement officer has no account; a stranger registers their address first.
    const officer = `procurement.${Date.now()}@muranga.go.ke`;
    const squatter = await registerCustomer(t, { fullName: 'Not The Officer', email: officer });
    const invited = await t
      .http()
      .post(`/api/organisations/${org._id}/invitations`)
      .set(bearer(approver.accessToken))
      .send({ email: officer, role: 'approver' })
      .expect(201);
    // The stranger sees it in their list and accepts, without the e-mail the officer received.
    const mine = await t
      .http()
      .get('/api/organisation-invitations')
      .set(bearer(squatter.accessToken))
      .expect(200);
    expect(mine.body.invitations).toHaveLength(1);
    // Without the code of the e-mail's link (which only the mailbox's owner reads), or with a
    // guessed one, the invitation is not found, and nothing changes.
    for (const body of [{}, { code: 'A'.repeat(43) }]) {
      const res = await t
        .http()
        .post(`/api/organisation-invitations/${invited.body.invitation._id}/accept`)
        .set(bearer(squatter.accessToken))
        .send(body);
      expect({ status: res.status, message: res.body.message }).toEqual(
        body.code
          ? { status: 404, message: 'No invitation with this id' }
          : {
              status: 400,
              message: expect.stringContaining('The code from the invitation e-mail'),
            },
      );
    }
    const after = (
      await t.http().get(`/api/organisations/${org._id}`).set(bearer(approver.accessToken))
    ).body.organisation as OrganisationView;
    expect(after.people.map((p) => p.accountId)).not.toContain(squatter.user._id);
  });
});
