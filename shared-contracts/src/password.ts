/** The one password rule: at least 6 characters, a letter, a digit and one of @$!%*#?&, nothing else. */
export const PASSWORD_SPECIALS = '@$!%*#?&';
export const PASSWORD_PATTERN = /^(?=.*[A-Za-z])(?=.*\d)(?=.*[@$!%*#?&])[A-Za-z\d@$!%*#?&]{6,}$/;
export const PASSWORD_RULE_MESSAGE =
  'Password must be at least 6 characters and contain at least one letter, one number and one special character (@$!%*#?&), using only letters, numbers and those special characters';

export function isValidPassword(value: string): boolean {
  return PASSWORD_PATTERN.test(value);
}
