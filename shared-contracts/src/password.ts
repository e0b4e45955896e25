/** The one password rule: at least 6 characters, a letter, a digit and one of @$!%*#?&, nothing else. */
export const PASSWORD_SPECIALS = '@$!%*#?&';
export const PASSWORD_PATTERN = /^(?=.*[A-Za-z])(?=.*\d)(?=.*[@$!%*#?&])[A-Za-z\d@$!%*#?&]{6,}$/;
export const PASSWORD_RULE_MESSAGE =
  'Password must be at least 6 characters and contain at least one letter, one number and one special character (@$!%*#?&), using only letters, numbers and those special characters';

export function isValidPassword(value: string): boolean {
  return PASSWORD_PATTERN.test(value);
}

/**
 * Staff and admin passwords open the back office (every order, customer and refund): they need
 * twice the customer's length, with the same characters. Sign-in still takes a shorter one set
 * before this rule; any new one (added staff, changed, reset, ADMIN_PASSWORD) follows it.
 */
export const STAFF_PASSWORD_MIN_LENGTH = 12;
export const STAFF_PASSWORD_PATTERN =
  /^(?=.*[A-Za-z])(?=.*\d)(?=.*[@$!%*#?&])[A-Za-z\d@$!%*#?&]{12,}$/;
export const STAFF_PASSWORD_RULE_MESSAGE =
  'Staff and admin passwords must be at least 12 characters and contain at least one letter, one number and one special character (@$!%*#?&), using only letters, numbers and those special characters';

/** The rule a new password of this role must follow: the customer's, or the longer staff one. */
export function passwordRuleFor(role: 'admin' | 'staff' | 'customer'): {
  pattern: RegExp;
  message: string;
} {
  return role === 'customer'
    ? { pattern: PASSWORD_PATTERN, message: PASSWORD_RULE_MESSAGE }
    : { pattern: STAFF_PASSWORD_PATTERN, message: STAFF_PASSWORD_RULE_MESSAGE };
}
