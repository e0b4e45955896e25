import { BadRequestException } from '@nestjs/common';
import { TEXT_LIMITS } from '@spc/shared-contracts';
import { createValidationPipe } from '../../common/validation';
import { UpdateProfileDto } from './user.dto';

describe('the validation pipe on one-line texts', () => {
  const body = { type: 'body' as const, metatype: UpdateProfileDto, data: undefined };
  const limit = TEXT_LIMITS.streetAddress;
  const phoneNumber = '0712345678';

  it('makes control characters one space and trims, then checks the length', async () => {
    const pipe = createValidationPipe();
    const dto = (await pipe.transform(
      {
        fullName: ' Wanjiku\u0000\u0001Kamau\n',
        phoneNumber,
        streetAddress: 'Ruiru,\u2028near the stage',
      },
      body,
    )) as UpdateProfileDto;
    expect(dto.fullName).toBe('Wanjiku Kamau');
    expect(dto.streetAddress).toBe('Ruiru, near the stage');
  });

  it('counts the length of the text as sent: a longer one is refused even if it collapses', async () => {
    const pipe = createValidationPipe();
    const sent = `Ruiru${'\u0085'.repeat(limit)}stage`;
    await expect(
      pipe.transform({ fullName: 'Wanjiku Kamau', phoneNumber, streetAddress: sent }, body),
    ).rejects.toThrow(BadRequestException);
    const fits = (await pipe.transform(
      { fullName: 'Wanjiku Kamau', phoneNumber, streetAddress: 'x'.repeat(limit) },
      body,
    )) as UpdateProfileDto;
    expect(fits.streetAddress).toHaveLength(limit);
  });
});
