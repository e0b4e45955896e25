import { jsonDepth } from './json-depth';

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
