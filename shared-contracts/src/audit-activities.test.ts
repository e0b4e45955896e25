import { auditActivityName, AUDIT_ACTIVITIES, describeAuditActivity } from './audit-activities';

describe('audit activities in words', () => {
  it.each([
    ['category.create', 'Fruits', 'Created category Fruits'],
    ['order.inTransit', 'SPD-2026-0042', 'Marked order SPD-2026-0042 in transit'],
    ['product.stock.out', 'Grafted Hass avocado', 'Marked Grafted Hass avocado out of stock'],
    ['staff.deactivate', 'Peter Mwangi', 'Deactivated staff member Peter Mwangi'],
    ['auth.login', 'wanjiku@example.co.ke', 'Signed in'],
    [
      'privacy.request.confirm',
      'SPD7K3MX9QA',
      'Confirmed the data request about order SPD7K3MX9QA',
    ],
    [
      'privacy.settings.update',
      'texts sent kept 180 → 30 days',
      'Changed the privacy settings: texts sent kept 180 → 30 days',
    ],
  ])('reads %s of %p as %p', (action, label, sentence) => {
    expect(describeAuditActivity(action, label)).toBe(sentence);
  });

  it('names the activity alone when the entry has no record', () => {
    expect(describeAuditActivity('order.inTransit')).toBe('Marked order in transit');
    expect(describeAuditActivity('payment.mpesa.unknown', null)).toBe(
      'Ignored an unknown M-Pesa callback',
    );
    expect(describeAuditActivity('category.create', '  ')).toBe('Created category');
  });

  it('reads codes it does not know as words, never as the raw code', () => {
    expect(auditActivityName('delivery-zone.create')).toBe('Created delivery zone');
    expect(describeAuditActivity('delivery-zone.delete', 'Nairobi CBD')).toBe(
      'Deleted delivery zone Nairobi CBD',
    );
    expect(auditActivityName('order.bulkInTransit')).toBe('Order bulk in transit');
    expect(describeAuditActivity('message.archive', 'Ask about mangoes')).toBe(
      'Archived message Ask about mangoes',
    );
    expect(describeAuditActivity('stock.shrinkage', 'Kale')).toBe('Stock shrinkage: Kale');
    expect(auditActivityName('')).toBe('Unknown activity');
  });

  it('gives every listed code a name that starts with a capital and holds no code', () => {
    for (const [code, activity] of Object.entries(AUDIT_ACTIVITIES)) {
      expect(activity.name).toMatch(/^[A-Z]/);
      expect(activity.name).not.toContain(code);
      expect(activity.name).not.toContain('.');
      if (activity.sentence) expect(activity.sentence).toContain('{target}');
    }
  });

  it('knows every action the API records today', () => {
    const recorded = [
      'auth.login',
      'auth.password.change',
      'profile.update',
      'user.update',
      'user.deactivate',
      'user.restore',
      'user.delete',
      'staff.create',
      'staff.update',
      'staff.deactivate',
      'staff.restore',
      'staff.delete',
      'category.create',
      'category.update',
      'category.delete',
      'product.create',
      'product.update',
      'product.delete',
      'product.stock.out',
      'product.stock.in',
      'product.offer',
      'order.payment',
      'order.payment.receipt',
      'order.inTransit',
      'order.delivered',
      'order.fulfil',
      'order.update',
      'order.cancel',
      'order.expire',
      'order.delete',
      'payment.mpesa.failed',
      'payment.mpesa.reopened',
      'payment.mpesa.refund',
      'payment.mpesa.duplicate',
      'payment.mpesa.unknown',
      'site-picture.update',
      'site-picture.remove',
    ];
    expect(recorded.filter((code) => !(code in AUDIT_ACTIVITIES))).toEqual([]);
  });
});
