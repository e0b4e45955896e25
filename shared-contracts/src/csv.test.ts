import { csvCell, toCsv } from './csv';

describe('CSV cells', () => {
  it.each([
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ['+254712345678', "'+254712345678"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1', "'\t=1"],
  ])('neutralises the formula %p', (input, expected) => {
    expect(csvCell(input)).toBe(expected);
  });

  it('quotes commas, quotes and line breaks, and leaves plain text and numbers alone', () => {
    expect(csvCell('Kiambu, Ruiru')).toBe('"Kiambu, Ruiru"');
    expect(csvCell('a "tray"')).toBe('"a ""tray"""');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell('Mango seedling')).toBe('Mango seedling');
    expect(csvCell(-150)).toBe('-150');
    expect(csvCell(null)).toBe('');
  });

  it('joins rows with line breaks and ends with one', () => {
    expect(
      toCsv([
        ['name', 'total'],
        ['=cmd', 300],
      ]),
    ).toBe("name,total\n'=cmd,300\n");
  });
});
