import { lpoKey, quotationNumber, statusOn } from './quotation-record';
import { storedFor } from './quotations.repository';

describe('a quotation as read on a shop day', () => {
  const today = '2026-11-28';

  it('reads a sent (or claimed) one past its validity as expired, and on its last day as sent', () => {
    expect(statusOn({ status: 'sent', validUntil: '2026-11-27' }, today)).toBe('expired');
    expect(statusOn({ status: 'sent', validUntil: today }, today)).toBe('sent');
    expect(statusOn({ status: 'accepting', validUntil: '2026-12-01' }, today)).toBe('sent');
    expect(statusOn({ status: 'accepting', validUntil: '2026-11-01' }, today)).toBe('expired');
  });

  it('keeps the other statuses as stored, whatever the validity', () => {
    for (const status of ['requested', 'accepted', 'declined', 'withdrawn'] as const)
      expect(statusOn({ status, validUntil: '2020-01-01' }, today)).toBe(status);
  });

  it('finds an expired or sent one among the stored sent ones', () => {
    expect(storedFor(['sent', 'expired'])).toEqual(['sent']);
    expect(storedFor(['requested', 'sent', 'expired'])).toEqual(['requested', 'sent']);
  });

  it('numbers from one sequence and compares LPO numbers without case or blanks', () => {
    expect(quotationNumber(123)).toBe('QUO-000123');
    expect(quotationNumber(1_234_567)).toBe('QUO-1234567');
    expect(lpoKey(' kcg/lpo 2026/0412 ')).toBe('KCG/LPO2026/0412');
  });
});
