import { addDays } from '../common/shop-clock';
import { latestReminder } from './invoice-reminders';
import { invoiceReminderMail, invoiceReminderSms } from './invoice-reminders-text';

describe('invoice reminders', () => {
  it('answers the latest reminder whose day has come: none before the due date, the week one from a week after', () => {
    const due = '2026-11-10';
    expect(latestReminder(due, '2026-11-09')).toBeNull();
    expect(latestReminder(due, due)).toBe('due');
    expect(latestReminder(due, addDays(due, 6))).toBe('due');
    expect(latestReminder(due, addDays(due, 7))).toBe('week');
    expect(latestReminder(due, addDays(due, 40))).toBe('week');
  });

  const inv = {
    number: 'INV-000042',
    lpoNumber: 'KFS/LPO/2026/118',
    balance: 1_234_567,
    total: 1_500_000,
    dueDate: '2026-11-10',
    organisationName: 'Kenya Forest Service',
  };

  it('texts the amount, the LPO and how to pay in one message of at most 160 characters', () => {
    const due = invoiceReminderSms('due', inv, { paybill: '5123456', shopPhone: '+254700000000' });
    expect(due).toBe(
      'Seedling Propagation Centre: invoice INV-000042 of KES 1,234,567 for LPO KFS/LPO/2026/118 is due today. Pay by M-Pesa paybill 5123456, account INV-000042.',
    );
    expect(due.length).toBeLessThanOrEqual(160);
    const week = invoiceReminderSms('week', inv, { paybill: null, shopPhone: '+254700000000' });
    expect(week).toContain('was due on 10 November');
    expect(week).toContain('Call +254700000000');
    expect(week.length).toBeLessThanOrEqual(160);
  });

  it('leaves the LPO number out when the text would not fit in one message', () => {
    const long = invoiceReminderSms(
      'week',
      { ...inv, dueDate: '2026-09-10' },
      { paybill: '5123456', shopPhone: '+254700000000' },
    );
    expect(long).toBe(
      'Seedling Propagation Centre: invoice INV-000042 of KES 1,234,567 was due on 10 September. Pay by M-Pesa paybill 5123456, account INV-000042.',
    );
  });

  it('leaves an LPO number with other characters, or a long one, out of the text', () => {
    for (const lpoNumber of ['LPO 12 <a href>', 'X'.repeat(21), 'http://x.co'])
      expect(
        invoiceReminderSms('due', { ...inv, lpoNumber }, { paybill: '512345', shopPhone: '1' }),
      ).not.toContain('LPO');
  });

  it("mails the same words, the organisation's name quoted as text", () => {
    const mail = invoiceReminderMail(
      'week',
      { ...inv, organisationName: 'Evil https://phish.example' },
      { paybill: '512345', shopPhone: '+254700000000', shopEmail: 'shop@example.co.ke' },
    );
    expect(mail.subject).toBe('Invoice INV-000042 is overdue (due 10 November)');
    expect(mail.text).toContain(
      'Still owed: KES 1,234,567 (of KES 1,500,000; the rest is settled)',
    );
    expect(mail.text).toContain('paybill 512345, account INV-000042');
    expect(mail.text).not.toContain('https://');
  });
});
