import {
  describeTotal,
  formatDate,
  formatDateTime,
  formatMoney,
  formatTotal,
  initials,
  paginationWindow,
} from './format';

describe('formatters', () => {
  it('formats whole shillings with en-US grouping', () => {
    expect(formatMoney(1250)).toBe('KES 1,250');
    expect(formatMoney(100000, 'KSH')).toBe('KSH 100,000');
  });

  it.each([
    ['Wanjiku Kamau', 'WK'],
    ['  achieng   mary otieno ', 'AO'],
    ['Kip', 'K'],
    ['', ''],
  ])('takes the initials of %p', (name, expected) => {
    expect(initials(name)).toBe(expected);
  });

  it('writes a total with en-US grouping, a lower bound with a plus', () => {
    expect(formatTotal(1250)).toBe('1,250');
    expect(formatTotal(1000, true)).toBe('1,000+');
    expect(formatTotal(0)).toBe('0');
  });

  it('names a total with its noun, a lower bound always in the plural', () => {
    const orders = { one: 'order', many: 'orders' };
    expect(describeTotal(1, false, orders)).toBe('1 order');
    expect(describeTotal(1250, false, orders)).toBe('1,250 orders');
    expect(describeTotal(1000, true, { one: 'entry', many: 'entries' })).toBe('1,000+ entries');
  });

  it('writes dates as dd/MM/yyyy in Nairobi time', () => {
    expect(formatDate('2026-11-22T21:30:00Z')).toBe('23/11/2026');
    expect(formatDateTime('2026-11-22T06:05:00Z')).toBe('22/11/2026 (9:05 AM)');
    expect(formatDate(null)).toBe('');
  });
});

describe('paginationWindow', () => {
  it('shows every page up to 8', () => {
    expect(paginationWindow(1, 1)).toEqual([1]);
    expect(paginationWindow(3, 8)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(paginationWindow(1, 0)).toEqual([]);
  });

  it('shows the first, the last, a window and ellipses beyond 8', () => {
    expect(paginationWindow(1, 20)).toEqual([1, 2, 3, 4, 'ellipsis-end', 20]);
    expect(paginationWindow(10, 20)).toEqual([1, 'ellipsis-start', 9, 10, 11, 'ellipsis-end', 20]);
    expect(paginationWindow(20, 20)).toEqual([1, 'ellipsis-start', 17, 18, 19, 20]);
    expect(paginationWindow(3, 9)).toEqual([1, 2, 3, 4, 'ellipsis-end', 9]);
  });

  it('clamps a page outside the range', () => {
    expect(paginationWindow(99, 12)).toEqual([1, 'ellipsis-start', 9, 10, 11, 12]);
  });
});
