import { csvCell, toCsv } from './csv';

describe('CSV cells', () => {
  it.each([
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ['+254712345678', "'+254712345678"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1', "'\t'=1"], // a tab is a separator too: both cells are text
  ])('neutralises the formula %p', (input, expected) => {
    expect(csvCell(input)).toBe(expected);
  });

  it.each([
    ['a;=1+1', "a;'=1+1"],
    ['Kamakis; +254712345678', "Kamakis; '+254712345678"],
    ['x;"=cmd"', '"x;""\'=cmd"""'],
    ['a,@SUM(A1)', '"a,\'@SUM(A1)"'],
    ['=a;=b', "'=a;'=b"],
  ])(
    'neutralises a formula after a separator a spreadsheet may split on: %p',
    (input, expected) => {
      expect(csvCell(input)).toBe(expected);
    },
  );

  it('leaves separators followed by plain text alone', () => {
    expect(csvCell('Ruiru; near the stage')).toBe('Ruiru; near the stage');
    expect(csvCell('2-3 trays')).toBe('2-3 trays');
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
