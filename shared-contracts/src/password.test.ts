import { isValidPassword, PASSWORD_RULE_MESSAGE } from './password';

describe('the password rule', () => {
  it.each(['abc12@', 'Seedling#2026', 'a1$a1$a1$', '9*z9*z'])('accepts %s', (password) => {
    expect(isValidPassword(password)).toBe(true);
  });

  it.each([
    ['too short', 'a1@b2'],
    ['no digit', 'abcdef@'],
    ['no letter', '123456@'],
    ['no special character', 'abc12345'],
    ['a character outside the rule', 'abc12@ '],
    ['a special character outside the rule', 'abc12@^'],
    ['an empty string', ''],
  ])('refuses a password with %s', (_, password) => {
    expect(isValidPassword(password)).toBe(false);
  });

  it('states exactly the rule it enforces', () => {
    expect(PASSWORD_RULE_MESSAGE).toContain('at least 6 characters');
    expect(PASSWORD_RULE_MESSAGE).toContain('@$!%*#?&');
    expect(PASSWORD_RULE_MESSAGE).not.toMatch(/upper|lower/i);
  });
});
