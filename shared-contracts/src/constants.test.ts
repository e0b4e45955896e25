import { PURCHASE_NUMBER, PURCHASE_NUMBER_PATTERN } from './constants';

describe('purchase numbers', () => {
  it('use an alphabet without the look-alikes 0/O and 1/I', () => {
    expect(PURCHASE_NUMBER.alphabet).not.toMatch(/[01OI]/);
    expect(new Set(PURCHASE_NUMBER.alphabet).size).toBe(PURCHASE_NUMBER.alphabet.length);
  });

  it.each(['SPD7K3MX9QA', 'SPD22222222'])('match %s', (value) => {
    expect(PURCHASE_NUMBER_PATTERN.test(value)).toBe(true);
  });

  it.each(['SPD7K3MX9Q', 'SPD7K3MX9QAB', 'spd7k3mx9qa', 'SPD0K3MX9QA', 'XYZ7K3MX9QA'])(
    'refuse %s',
    (value) => {
      expect(PURCHASE_NUMBER_PATTERN.test(value)).toBe(false);
    },
  );
});
