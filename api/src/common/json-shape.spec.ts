import { jsonDepth, jsonShape } from './json-shape';

describe('jsonDepth', () => {
  it('counts nested arrays and objects', () => {
    expect(jsonDepth('1')).toBe(0);
    expect(jsonDepth('{"a":[1,{"b":2}]}')).toBe(3);
    expect(jsonDepth('[[],[[]]]')).toBe(3);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonDepth('{"a":"[[[{{{"}')).toBe(1);
    expect(jsonDepth('{"a":"\\"[[[", "b":[1]}')).toBe(2);
  });

  it('stops counting past the limit', () => {
    expect(jsonDepth('['.repeat(1_000_000), 32)).toBe(33);
  });
});

describe('jsonShape', () => {
  it('counts array items and object fields, an empty container as one', () => {
    expect(jsonShape('{"a":1,"b":[1,2,3]}').values).toBe(5);
    expect(jsonShape('[{},{},{}]').values).toBe(6);
    expect(jsonShape('{}').values).toBe(1);
    expect(jsonShape('"a,b"').values).toBe(0);
  });

  it('ignores commas inside strings', () => {
    expect(jsonShape('{"a":",,,,[{","b":"\\",,"}').values).toBe(2);
  });

  it('names the first character that is not blank', () => {
    expect(jsonShape(' \n\t[1]').first).toBe('[');
    expect(jsonShape('  {"a":1}').first).toBe('{');
    expect(jsonShape('"{"').first).toBe('"');
    expect(jsonShape('   ').first).toBe('');
    expect(jsonShape('\ufeff{"a":1}').first).toBe('{');
  });

  it('stops counting past the limit of values', () => {
    const many = `{"a":[${'1,'.repeat(1_000_000)}1]}`;
    expect(jsonShape(many, 32, 1000).values).toBe(1001);
  });
});
