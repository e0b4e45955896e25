import { ConflictException, NotFoundException } from '@nestjs/common';
import type { AuditService } from '../audit/audit.service';
import type { Principal } from '../common/principal';
import type { OrderRecord } from '../orders/order.types';
import type { TrancheOrders } from '../orders/tranche-orders';
import {
  scanKey,
  scanKindOf,
  type ScannedDocuments,
  type ScanRecord,
} from '../scans/scanned-documents.service';
import type { OrderTranchesRecord, TrancheRecord } from './tranche-record';
import { TrancheSignedNotes } from './tranche-signed-notes';
import type { TranchesRepository } from './tranches.repository';
import type { TranchesService } from './tranches.service';

const staff: Principal = { id: 's1', role: 'staff', fullName: 'Wanjiku Kamau' };
const order = { _id: 'o1', purchaseNumber: 'SPD1A2B3C4D' } as unknown as OrderRecord;
const tranche = (state: TrancheRecord['state']) =>
  ({
    number: 1,
    state,
    date: '2026-10-15',
    site: { name: 'Site', county: 'Kiambu', subCounty: '', contact: { name: 'A', phone: '+254' } },
    lines: [],
    plannedAt: new Date(),
    changedAt: null,
    dispatchedAt: new Date(),
    signedBy: null,
    signedAt: null,
    recordedAt: null,
    cancelledAt: null,
  }) as unknown as TrancheRecord;
const docWith = (t: TrancheRecord) =>
  ({
    _id: 'o1',
    purchaseNumber: 'SPD1A2B3C4D',
    organisationId: 'org1',
    lpoNumber: 'LPO/1',
    lines: [],
    tranches: [t],
  }) as unknown as OrderTranchesRecord;
const kept: ScanRecord = {
  ownerKind: 'order',
  ownerId: 'o1',
  kind: 'signedNote:T1',
  organisationId: 'org1',
  contentType: 'image/jpeg',
  size: 2048,
  sha256: 'a',
  sourceSha256: 'a',
  uploadedById: 's1',
  uploadedByRole: 'staff',
  uploadedAt: new Date(),
};

/** The order as each later read finds it (null: deleted by then), the scans and the trail replaced. */
function setup(state: TrancheRecord['state'], later: (OrderRecord | null)[]) {
  const tranches = { shopOrder: jest.fn(async () => order) };
  const repository = { find: jest.fn(async () => docWith(tranche(state))) };
  const orders = { find: jest.fn(async () => later.shift() ?? null) };
  const scans = {
    keep: jest.fn(async () => ({ scan: kept, written: true, replaced: null })),
    removeOwner: jest.fn(async () => undefined),
  };
  const audit = { record: jest.fn(async () => undefined) };
  const service = new TrancheSignedNotes(
    tranches as unknown as TranchesService,
    repository as unknown as TranchesRepository,
    orders as unknown as TrancheOrders,
    scans as unknown as ScannedDocuments,
    audit as unknown as AuditService,
  );
  return { service, scans, audit };
}

describe('TrancheSignedNotes.attach', () => {
  it("keeps the note as the order's signedNote of T1 and records it once", async () => {
    const { service, scans, audit } = setup('Dispatched', [order]);
    const view = await service.attach(staff, 'o1', 1, Buffer.from('x'));
    expect(view.signedNote).toMatchObject({ contentType: 'image/jpeg', size: 2048 });
    expect(scans.keep).toHaveBeenCalledWith(
      expect.objectContaining({
        owner: { kind: 'order', id: 'o1' },
        kind: 'signedNote',
        part: 'T1',
      }),
    );
    expect(audit.record).toHaveBeenCalledWith(
      staff,
      'tranche.signed-note',
      'Wanjiku Kamau attached the signed delivery note of tranche T1 of order SPD1A2B3C4D: Photo, 2 KB',
      { type: 'order', id: 'o1', label: 'SPD1A2B3C4D' },
    );
  });

  it('refuses a planned tranche before keeping anything', async () => {
    const { service, scans } = setup('Planned', [order]);
    await expect(service.attach(staff, 'o1', 1, Buffer.from('x'))).rejects.toBeInstanceOf(
      ConflictException,
    );
    expect(scans.keep).not.toHaveBeenCalled();
  });

  it('takes the note back when the order was deleted while it was being kept: 404, no entry', async () => {
    const { service, scans, audit } = setup('Delivered', [null]);
    await expect(service.attach(staff, 'o1', 1, Buffer.from('x'))).rejects.toBeInstanceOf(
      NotFoundException,
    );
    expect(scans.removeOwner).toHaveBeenCalledWith({ kind: 'order', id: 'o1' });
    expect(audit.record).not.toHaveBeenCalled();
  });
});

describe('scan keys', () => {
  it('keep a kind alone, or with its part; the kind is read back from either', () => {
    expect(scanKey('lpo')).toBe('lpo');
    expect(scanKey('signedNote', 'T12')).toBe('signedNote:T12');
    expect(scanKindOf('signedNote:T12')).toBe('signedNote');
    expect(scanKindOf('lpo')).toBe('lpo');
    expect(scanKindOf('toString')).toBeUndefined();
    expect(scanKindOf('constructor:T1')).toBeUndefined();
  });
});
