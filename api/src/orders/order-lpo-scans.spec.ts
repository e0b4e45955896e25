import { NotFoundException } from '@nestjs/common';
import type { AuditService } from '../audit/audit.service';
import type { Principal } from '../common/principal';
import type { OrganisationsService } from '../organisations/organisations.service';
import type { ScannedDocuments, ScanRecord } from '../scans/scanned-documents.service';
import { OrderLpoScans } from './order-lpo-scans';
import type { OrderRecord } from './order.types';
import type { OrdersRepository } from './orders.repository';

const staff: Principal = { id: 's1', role: 'staff', fullName: 'Wanjiku Kamau' };
const order = {
  _id: 'o1',
  purchaseNumber: 'SPD1A2B3C4D',
  placedBy: 'c1',
  quotation: { quotationId: 'q1', organisationId: 'org1', lpoNumber: 'LPO/1' },
} as unknown as OrderRecord;
const kept: ScanRecord = {
  ownerKind: 'order',
  ownerId: 'o1',
  kind: 'lpo',
  organisationId: 'org1',
  contentType: 'application/pdf',
  size: 2048,
  sha256: 'a',
  sourceSha256: 'a',
  uploadedById: 's1',
  uploadedByRole: 'staff',
  uploadedAt: new Date(),
};

/** The order as each read finds it (null: deleted by then), the scans and the trail replaced. */
function setup(reads: (OrderRecord | null)[]) {
  const orders = { findById: jest.fn(async () => (reads.length > 1 ? reads.shift()! : reads[0]!)) };
  const scans = {
    keep: jest.fn(async () => ({ scan: kept, written: true, replaced: null })),
    removeOwner: jest.fn(async () => undefined),
  };
  const audit = { record: jest.fn(async () => undefined) };
  const service = new OrderLpoScans(
    orders as unknown as OrdersRepository,
    {} as OrganisationsService,
    scans as unknown as ScannedDocuments,
    audit as unknown as AuditService,
  );
  return { service, scans, audit };
}

describe('OrderLpoScans.attach', () => {
  it('keeps the scan and records it once on an order that stays', async () => {
    const { service, scans, audit } = setup([order]);
    await expect(service.attach(staff, 'o1', Buffer.from('%PDF-'))).resolves.toMatchObject({
      contentType: 'application/pdf',
    });
    expect(scans.removeOwner).not.toHaveBeenCalled();
    expect(audit.record).toHaveBeenCalledTimes(1);
  });

  it('takes the scan back when the order was deleted while it was being kept: 404, no entry', async () => {
    // Read before keeping it, gone after (an admin deleted it meanwhile; its listener ran first).
    const { service, scans, audit } = setup([order, null]);
    await expect(service.attach(staff, 'o1', Buffer.from('%PDF-'))).rejects.toBeInstanceOf(
      NotFoundException,
    );
    expect(scans.removeOwner).toHaveBeenCalledWith({ kind: 'order', id: 'o1' });
    expect(audit.record).not.toHaveBeenCalled();
  });
});
