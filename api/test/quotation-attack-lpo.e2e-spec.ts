/**
 * Accepting quotations as a careless or dishonest clerk would: one LPO number typed in other
 * spellings (pasted with an invisible character, in full-width letters) for a second quotation,
 * and an approver removed from the organisation (or of one suspended) still trying to accept.
 */
import { QUOTATION_MESSAGES as QM } from '@spc/shared-contracts';
import { bearer, registerCustomer, UNTHROTTLED, type Session } from './support/identity';
import { addPerson } from './support/organisations';
import { approvedOrganisation, type ApprovedOrganisation } from './support/quotation-orders';
import { priceAndSend, quotationOf, trayProduct, type TrayProduct } from './support/quotations';
import { createShopWorld, type ShopWorld } from './support/shop-world';
import { createTestApp, type TestApp } from './support/test-app';

describe('quotation acceptance attacked', () => {
  let t: TestApp;
  let world: ShopWorld;
  let org: ApprovedOrganisation;
  let tray: TrayProduct;

  beforeAll(async () => {
    t = await createTestApp({ name: 'quotation_attack_lpo', env: UNTHROTTLED });
    world = await createShopWorld(t);
    org = await approvedOrganisation(t, world, 10_000_000);
    tray = await trayProduct(t, world, 20_000);
  });
  afterAll(() => t.close());

  const as = (s: Session) => bearer(s.accessToken);

  /** A quotation of two trays written by staff for the organisation and sent as version 1. */
  async function sentQuotation(): Promise<string> {
    const lines = [{ productId: tray.productId, unitId: tray.trayId, quantity: 2 }];
    const q = quotationOf(
      await t
        .http()
        .post('/api/quotations')
        .set(as(world.staff))
        .send({ organisationId: org.organisationId, lines })
        .expect(201),
    );
    await priceAndSend(t, world.staff, q._id, lines);
    return q._id;
  }

  const accept = (id: string, who: Session, lpoNumber: string) =>
    t.http().post(`/api/quotations/${id}/accept`).set(as(who)).send({ version: 1, lpoNumber });

  it('refuses an LPO number used already, pasted with invisible characters or in full-width letters', async () => {
    await accept(await sentQuotation(), org.approver, 'KCG/LPO/0412').expect(201);
    const second = await sentQuotation();
    for (const spelling of [
      'kcg / lpo / 0412',
      'KCG/LPO/0412\u200b',
      'KCG/\u00adLPO/0412',
      '\u2060KCG/LPO/0412',
      'ＫＣＧ/ＬＰＯ/０４１２',
    ]) {
      const res = await accept(second, org.approver, spelling);
      expect({ spelling, status: res.status, code: res.body.code }).toEqual({
        spelling,
        status: 409,
        code: 'LPO_TAKEN',
      });
    }
    // Invisible characters alone are no LPO number.
    const blank = await accept(second, org.approver, '\u200b\u2060').expect(400);
    expect(blank.body.message).toBe(QM.lpoRequired);
    const read = await t.http().get(`/api/quotations/${second}`).set(as(world.staff)).expect(200);
    expect(read.body.quotation.status).toBe('sent');
  });

  it('answers 404 to an approver removed from the organisation, and 403 once it is suspended', async () => {
    const removed = await registerCustomer(t);
    await addPerson(t, org.organisationId, org.approver, removed, 'approver');
    const id = await sentQuotation();
    await t
      .http()
      .delete(`/api/organisations/${org.organisationId}/people/${removed.user._id}`)
      .set(as(org.approver))
      .expect((res) => expect(res.status).toBeLessThan(300));
    await t.http().get(`/api/quotations/${id}`).set(as(removed)).expect(404);
    await accept(id, removed, 'KCG/LPO/0500').expect(404);
    await t
      .http()
      .post(`/api/organisations/${org.organisationId}/suspend`)
      .set(as(world.staff))
      .send({ reason: 'Unpaid invoices' })
      .expect(201);
    for (const who of [org.approver, world.staff]) {
      const res = await accept(id, who, 'KCG/LPO/0501').expect(403);
      expect(res.body.message).toBe(QM.notBuyer);
    }
    const read = await t.http().get(`/api/quotations/${id}`).set(as(world.staff)).expect(200);
    expect(read.body.quotation.status).toBe('sent');
    expect(read.body.quotation.acceptance).toBeNull();
  });
});
