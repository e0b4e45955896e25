/**
 * The identity forms of both apps (login, register, forgot/reset/change password, profile, staff and
 * user editing) with the specs' messages. `...PayloadSchema` is what the API receives; the API's DTOs
 * enforce the same rules (a test feeds both the same samples).
 */
import { z } from './zod';
import { LIMITS, PHONE_PATTERN, TEXT_LIMITS } from './constants';
import { VALIDATION_MESSAGES as M } from './messages';
import { PASSWORD_PATTERN, STAFF_PASSWORD_PATTERN } from './password';
import { buyerKraPinSchema } from './buyer-kra-pin';

const trimmed = () => z.string().trim();

const email = (invalidMessage: string = M.emailInvalid) =>
  trimmed()
    .min(1, M.emailRequired)
    .max(TEXT_LIMITS.email, invalidMessage)
    .pipe(z.email(invalidMessage));

const newPassword = (requiredMessage: string = M.passwordRequired) =>
  z
    .string()
    .min(1, requiredMessage)
    .max(TEXT_LIMITS.password, M.passwordRule)
    .regex(PASSWORD_PATTERN, M.passwordRule);

/** A new staff or admin password: the longer rule. */
const newStaffPassword = (requiredMessage: string = M.passwordRequired) =>
  z
    .string()
    .min(1, requiredMessage)
    .max(TEXT_LIMITS.password, M.staffPasswordRule)
    .regex(STAFF_PASSWORD_PATTERN, M.staffPasswordRule);

const phone = (max: number, requiredMessage: string = M.phoneRequired) =>
  trimmed().min(1, requiredMessage).max(max, M.phoneInvalid).regex(PHONE_PATTERN, M.phoneInvalid);

const fullName = (requiredMessage: string = M.fullNameRequired) =>
  trimmed()
    .min(1, requiredMessage)
    .max(TEXT_LIMITS.fullName, `Full name must be at most ${TEXT_LIMITS.fullName} characters`);

const optionalText = (max: number, label: string) =>
  trimmed().max(max, `${label} must be at most ${max} characters`).optional();

// Sign in: the storefront spec shows 'Email is required' for an empty or malformed address.
export const loginPayloadSchema = z.object({
  email: email(M.emailRequired),
  password: z.string().min(1, M.passwordRequired).max(TEXT_LIMITS.password, M.passwordRule),
});
export const loginFormSchema = z.object({
  email: email(M.emailRequired),
  password: newPassword(),
});

export const registerPayloadSchema = z.object({
  fullName: fullName(),
  email: email(),
  phoneNumber: phone(LIMITS.checkoutPhoneMaxLength),
  password: newPassword(),
});
export const registerFormSchema = registerPayloadSchema
  .extend({ confirmPassword: z.string().min(1, M.confirmPasswordRequired) })
  .refine((v) => v.password === v.confirmPassword, {
    message: M.passwordsDoNotMatch,
    path: ['confirmPassword'],
  });

export const forgotPasswordPayloadSchema = z.object({ email: email() });
export const forgotPasswordFormSchema = forgotPasswordPayloadSchema;

export const resetPasswordPayloadSchema = z.object({
  code: z.string().min(1, 'The reset code is missing').max(200, 'The reset code is not valid'),
  password: newPassword(),
});
export const resetPasswordFormSchema = z
  .object({
    password: newPassword(),
    confirmPassword: newPassword(M.confirmPasswordRequired),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: M.passwordDoNotMatch,
    path: ['confirmPassword'],
  });

/** The back office's reset page: only staff and admin reset there, so the staff rule. */
export const staffResetPasswordFormSchema = z
  .object({
    password: newStaffPassword(),
    confirmPassword: newStaffPassword(M.confirmPasswordRequired),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: M.passwordDoNotMatch,
    path: ['confirmPassword'],
  });

export const changePasswordPayloadSchema = z.object({
  currentPassword: z
    .string()
    .min(1, M.oldPasswordRequired)
    .max(TEXT_LIMITS.password, M.passwordRule),
  newPassword: newPassword(M.newPasswordRequired),
});
export const changePasswordFormSchema = z
  .object({
    currentPassword: z.string().min(1, M.oldPasswordRequired),
    newPassword: newPassword(M.newPasswordRequired),
    confirmPassword: newPassword(M.confirmPasswordRequired),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: M.passwordDoNotMatch,
    path: ['confirmPassword'],
  });

/** The back office's change-password form (staff and admin): the staff rule. */
export const staffChangePasswordFormSchema = z
  .object({
    currentPassword: z.string().min(1, M.oldPasswordRequired),
    newPassword: newStaffPassword(M.newPasswordRequired),
    confirmPassword: newStaffPassword(M.confirmPasswordRequired),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: M.passwordDoNotMatch,
    path: ['confirmPassword'],
  });

/** Own profile (staff or customer): `PATCH /api/users/profile`. */
export const profilePayloadSchema = z.object({
  fullName: fullName(),
  phoneNumber: phone(LIMITS.checkoutPhoneMaxLength, M.profilePhoneRequired),
  county: optionalText(TEXT_LIMITS.county, 'County'),
  streetAddress: optionalText(TEXT_LIMITS.streetAddress, 'Street address'),
  /** Order text messages (SMS); unchanged when left out. */
  smsNotifications: z.boolean().optional(),
  /** The KRA PIN a customer's receipts are tax invoices to; unchanged when left out, empty: none. */
  kraPin: buyerKraPinSchema.optional(),
});
export const profileFormSchema = profilePayloadSchema;

/** Back office: Add Staff. */
export const createStaffPayloadSchema = z.object({
  fullName: fullName(M.staffFullNameRequired),
  email: email(),
  phoneNumber: phone(LIMITS.staffPhoneMaxLength),
  password: newStaffPassword(),
});
export const createStaffFormSchema = createStaffPayloadSchema;

/** Back office: edit staff and edit user share these rules. */
export const editPersonFormSchema = z.object({
  fullName: fullName(M.staffFullNameRequired),
  email: email(),
  phoneNumber: phone(LIMITS.staffPhoneMaxLength),
});
export const updateStaffPayloadSchema = editPersonFormSchema.partial();

/**
 * `PATCH /api/user/update/:id` body's `updatedUser`: admin edits a customer (≤ 10-character phone, as
 * the back office's form), a customer edits their own record (checkout's ≤ 13; e-mail unchanged).
 */
export const updateUserPayloadSchema = z.object({
  fullName: fullName().optional(),
  email: email().optional(),
  phoneNumber: phone(LIMITS.checkoutPhoneMaxLength).optional(),
  county: optionalText(TEXT_LIMITS.county, 'County'),
  streetAddress: optionalText(TEXT_LIMITS.streetAddress, 'Street address'),
});

/** `PATCH /api/admin/profile`. */
export const adminProfilePayloadSchema = z.object({
  fullName: fullName().optional(),
  email: email().optional(),
  phoneNumber: phone(LIMITS.checkoutPhoneMaxLength).optional(),
  county: optionalText(TEXT_LIMITS.county, 'County'),
  streetAddress: optionalText(TEXT_LIMITS.streetAddress, 'Street address'),
});

export type LoginPayload = z.infer<typeof loginPayloadSchema>;
export type RegisterPayload = z.infer<typeof registerPayloadSchema>;
export type RegisterForm = z.infer<typeof registerFormSchema>;
export type ResetPasswordForm = z.infer<typeof resetPasswordFormSchema>;
export type ChangePasswordForm = z.infer<typeof changePasswordFormSchema>;
export type ProfilePayload = z.infer<typeof profilePayloadSchema>;
export type CreateStaffPayload = z.infer<typeof createStaffPayloadSchema>;
export type EditPersonForm = z.infer<typeof editPersonFormSchema>;
