/**
 * Scanned LPOs in the e2e suites: their routes, a quotation accepted into an order, and the files a
 * buyer's office sends (a scanner's PDF, a phone's photo).
 */
import { randomUUID } from 'node:crypto';
import PDFDocument from 'pdfkit';
import sharp from 'sharp';
import { bearer, registerCustomer, type Session } from './identity';
import { addPerson } from './organisations';
import { approvedOrganisation } from './quotation-orders';
import { priceAndSend, quotationOf, type TrayProduct } from './quotations';
import type { ShopWorld } from './shop-world';
import type { TestApp } from './test-app';

/** The scanned LPO's routes as the OpenAPI document names them (quotation-lpo-scan.e2e-spec.ts tests who may call them). */
export const LPO_SCAN_ROUTES = [
  'PUT /api/orders/{id}/lpo-scan',
  'GET /api/orders/{id}/lpo-scan',
] as const;

/** An approved organisation with its credit limit, its approver and a buyer. */
export interface Organisation {
  organisationId: string;
  approver: Session;
  buyer: Session;
}

export async function organisationWithBuyer(
  t: TestApp,
  world: ShopWorld,
  creditLimit = 10_000_000,
): Promise<Organisation> {
  const org = await approvedOrganisation(t, world, creditLimit);
  const buyer = await registerCustomer(t);
  await addPerson(t, org.organisationId, org.approver, buyer, 'buyer');
  return { ...org, buyer };
}

export interface AcceptedOrder {
  quotationId: string;
  orderId: string;
  purchaseNumber: string;
  lpoNumber: string;
}

/**
 * Two trays asked for by staff for the organisation, priced and sent, and accepted by `acceptor`
 * (its approver, or staff on the buyer's word) with an LPO number: the order it made.
 */
export async function acceptedOrder(
  t: TestApp,
  world: ShopWorld,
  org: { organisationId: string },
  tray: TrayProduct,
  acceptor: Session,
  lpoNumber = `KCG/LPO/${randomUUID().slice(0, 8)}`,
): Promise<AcceptedOrder> {
  const lines = [{ productId: tray.productId, unitId: tray.trayId, quantity: 2 }];
  const q = quotationOf(
    await t
      .http()
      .post('/api/quotations')
      .set(bearer(world.staff.accessToken))
      .send({ organisationId: org.organisationId, lines })
      .expect(201),
  );
  await priceAndSend(t, world.staff, q._id, lines);
  const res = await t
    .http()
    .post(`/api/quotations/${q._id}/accept`)
    .set(bearer(acceptor.accessToken))
    .send({ version: 1, lpoNumber });
  if (res.status !== 201)
    throw new Error(`acceptance failed: ${res.status} ${JSON.stringify(res.body)}`);
  const order = res.body.order as { _id: string; purchaseNumber: string };
  return {
    quotationId: q._id,
    orderId: order._id,
    purchaseNumber: order.purchaseNumber,
    lpoNumber,
  };
}

/** A one-page PDF as a scanner's software writes one (pdfkit here), saying `text`. */
export function scannedPdf(text = 'LOCAL PURCHASE ORDER'): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4' });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.fontSize(18).text(text);
    doc.end();
  });
}

/**
 * A phone's photo of the paper: a JPEG taken sideways (EXIF orientation 6) carrying where it was
 * taken (GPS in its EXIF) and the phone's make.
 */
export function phonePhoto(width = 1200, height = 900): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#f4f1e8' } })
    .jpeg()
    .withMetadata({
      orientation: 6,
      exif: {
        IFD0: { Make: 'Tecno', Model: 'Spark 20' },
        IFD3: {
          GPSLatitudeRef: 'S',
          GPSLatitude: '1/1 10/1 0/1',
          GPSLongitudeRef: 'E',
          GPSLongitude: '36/1 50/1 0/1',
        },
      },
    })
    .toBuffer();
}
