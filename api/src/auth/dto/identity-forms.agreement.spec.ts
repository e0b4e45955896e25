/**
 * The apps validate with the zod schemas of shared-contracts, the API with class-validator DTOs. Both
 * must agree: the same good samples pass both, the same bad samples fail both, with the same message.
 */
import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { validate, type ValidationError } from 'class-validator';
import type { ZodType } from 'zod';
import {
  changePasswordPayloadSchema,
  createStaffPayloadSchema,
  forgotPasswordPayloadSchema,
  loginPayloadSchema,
  profilePayloadSchema,
  registerPayloadSchema,
  resetPasswordPayloadSchema,
  updateStaffPayloadSchema,
  updateUserPayloadSchema,
} from '@spc/shared-contracts';
import { CreateStaffDto, UpdatedStaffDto } from '../../staff/dto/staff.dto';
import { UpdatedUserDto, UpdateProfileDto } from '../../users/dto/user.dto';
import {
  ChangePasswordDto,
  ForgotPasswordDto,
  LoginDto,
  RegisterDto,
  ResetPasswordDto,
} from './auth.dto';

function firstMessages(errors: ValidationError[]): string[] {
  return errors.flatMap((e) => (e.constraints ? Object.values(e.constraints) : []));
}

async function dtoVerdict(dto: ClassConstructor<object>, sample: object) {
  const errors = await validate(plainToInstance(dto, sample), {
    whitelist: true,
    forbidNonWhitelisted: true,
  });
  return { ok: errors.length === 0, messages: firstMessages(errors) };
}

function zodVerdict(schema: ZodType, sample: object) {
  const result = schema.safeParse(sample);
  return {
    ok: result.success,
    messages: result.success ? [] : result.error.issues.map((i) => i.message),
  };
}

const register = {
  fullName: 'Wanjiku Kamau',
  email: 'wanjiku@example.co.ke',
  phoneNumber: '+254712345678',
  password: 'Seedling#2026',
};
const staff = {
  fullName: 'Peter Mwangi',
  email: 'peter@example.co.ke',
  phoneNumber: '0712345678',
  password: 'Staff#123456',
};

const cases: [string, ZodType, ClassConstructor<object>, object[], object[]][] = [
  [
    'register',
    registerPayloadSchema,
    RegisterDto,
    [register, { ...register, phoneNumber: '0712 345 678', fullName: '  Padded  ' }],
    [
      { ...register, fullName: '' },
      { ...register, email: 'nope' },
      { ...register, email: '' },
      { ...register, phoneNumber: '' },
      { ...register, phoneNumber: '+2547123456789' },
      { ...register, phoneNumber: 'call me' },
      { ...register, password: 'abcdef' },
      { ...register, password: 'abc12@ x' },
      { ...register, password: '' },
    ],
  ],
  [
    'login',
    loginPayloadSchema,
    LoginDto,
    [{ email: 'a@b.co', password: 'anything' }],
    [
      { email: '', password: 'x' },
      { email: 'not-mail', password: 'x' },
      { email: 'a@b.co', password: '' },
    ],
  ],
  [
    'forgot password',
    forgotPasswordPayloadSchema,
    ForgotPasswordDto,
    [{ email: 'a@b.co' }],
    [{ email: '' }, { email: 'x@' }],
  ],
  [
    'reset password',
    resetPasswordPayloadSchema,
    ResetPasswordDto,
    [{ code: 'abc', password: 'Fresh#Start9' }],
    [
      { code: '', password: 'Fresh#Start9' },
      { code: 'abc', password: 'short' },
    ],
  ],
  [
    'change password',
    changePasswordPayloadSchema,
    ChangePasswordDto,
    [{ currentPassword: 'old', newPassword: 'Fresh#Start9' }],
    [
      { currentPassword: '', newPassword: 'Fresh#Start9' },
      { currentPassword: 'old', newPassword: '' },
      { currentPassword: 'old', newPassword: 'nospecial1' },
    ],
  ],
  [
    'profile',
    profilePayloadSchema,
    UpdateProfileDto,
    [
      { fullName: 'A B', phoneNumber: '0711000111' },
      { fullName: 'A B', phoneNumber: '0711000111', county: 'Kiambu', streetAddress: 'Ruiru' },
      { fullName: 'A B', phoneNumber: '0711000111', kraPin: ' a012345678z ' },
      { fullName: 'A B', phoneNumber: '0711000111', kraPin: '' },
    ],
    [
      { fullName: '', phoneNumber: '0711000111' },
      { fullName: 'A B', phoneNumber: '' },
      { fullName: 'A B', phoneNumber: '0711000111', county: 'x'.repeat(61) },
      { fullName: 'A B', phoneNumber: '0711000111', kraPin: 'A01234567Z' },
      { fullName: 'A B', phoneNumber: '0711000111', kraPin: 'B012345678Z' },
    ],
  ],
  [
    'create staff',
    createStaffPayloadSchema,
    CreateStaffDto,
    [staff],
    [
      { ...staff, fullName: '' },
      { ...staff, phoneNumber: '07123456789' },
      { ...staff, password: 'staff123' },
      { ...staff, email: 'x' },
    ],
  ],
  [
    'edit staff',
    updateStaffPayloadSchema,
    UpdatedStaffDto,
    [{ fullName: 'New' }, {}],
    [{ phoneNumber: '+254712345678' }, { email: 'bad' }, { fullName: '' }],
  ],
  [
    'edit user',
    updateUserPayloadSchema,
    UpdatedUserDto,
    [{ fullName: 'New', county: 'Kiambu' }, { phoneNumber: '+254712345678' }],
    [{ phoneNumber: '+25471234567890' }, { email: 'bad' }, { streetAddress: 'x'.repeat(201) }],
  ],
];

describe.each(cases)('%s: the form schema and the API agree', (_, schema, dto, good, bad) => {
  it.each(good.map((s) => [JSON.stringify(s), s]))('both accept %s', async (_, sample) => {
    expect(zodVerdict(schema, sample).ok).toBe(true);
    expect(await dtoVerdict(dto, sample)).toEqual({ ok: true, messages: [] });
  });

  it.each(bad.map((s) => [JSON.stringify(s), s]))(
    'both refuse %s with the same message',
    async (_, sample) => {
      const zod = zodVerdict(schema, sample);
      const api = await dtoVerdict(dto, sample);
      expect(zod.ok).toBe(false);
      expect(api.ok).toBe(false);
      expect(api.messages).toContain(zod.messages[0]);
    },
  );
});
