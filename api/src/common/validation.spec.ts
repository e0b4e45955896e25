import { BadRequestException } from '@nestjs/common';
import { TEXT_LIMITS } from '@spc/shared-contracts';
import { UpdateProfileDto } from '../users/dto/user.dto';
import { PageQueryDto } from './pagination';
import { createValidationPipe } from './validation';

const query = { type: 'query' as const, metatype: PageQueryDto, data: undefined };

describe('the validation pipe on query objects', () => {
  it('answers a repeated query with an equal, separate, converted object', async () => {
    const pipe = createValidationPipe();
    const first = (await pipe.transform({ page: '2', limit: '5' }, query)) as PageQueryDto;
    expect(first).toBeInstanceOf(PageQueryDto);
    expect(first).toEqual({ page: 2, limit: 5 });
    first.page = 99;
    const second = (await pipe.transform({ page: '2', limit: '5' }, query)) as PageQueryDto;
    expect(second).toBeInstanceOf(PageQueryDto);
    expect(second).toEqual({ page: 2, limit: 5 });
    expect(second).not.toBe(first);
  });

  it('refuses a bad query every time it comes', async () => {
    const pipe = createValidationPipe();
    for (let i = 0; i < 2; i++) {
      await expect(pipe.transform({ page: '0' }, query)).rejects.toThrow(BadRequestException);
      await expect(pipe.transform({ page: '1', extra: 'x' }, query)).rejects.toThrow(
        BadRequestException,
      );
    }
  });

  it('tells different queries apart', async () => {
    const pipe = createValidationPipe();
    expect(await pipe.transform({ page: '1' }, query)).toEqual({ page: 1 });
    expect(await pipe.transform({ page: '3' }, query)).toEqual({ page: 3 });
    expect(await pipe.transform({ page: '1' }, query)).toEqual({ page: 1 });
  });
});

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
