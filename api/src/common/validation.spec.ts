import { BadRequestException } from '@nestjs/common';
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
