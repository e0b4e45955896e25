import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { MAX_PAGE_SIZE } from '@spc/shared-contracts';

/** Far past any list's end, and small enough that `(page - 1) * limit` stays a safe skip. */
export const MAX_PAGE = 100_000;

/** `page` (from 1) and `limit` (up to 100); each list sets its own default size. */
export class PageQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'page must be a whole number' })
  @Min(1, { message: 'page must be 1 or more' })
  @Max(MAX_PAGE, { message: `page must be at most ${MAX_PAGE}` })
  page?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be a whole number' })
  @Min(1, { message: 'limit must be 1 or more' })
  @Max(MAX_PAGE_SIZE, { message: `limit must be at most ${MAX_PAGE_SIZE}` })
  limit?: number;
}

export interface PageRequest {
  page: number;
  limit: number;
  skip: number;
}

export function pageRequest(query: PageQueryDto, defaultLimit: number): PageRequest {
  const page = query.page ?? 1;
  const limit = query.limit ?? defaultLimit;
  return { page, limit, skip: (page - 1) * limit };
}

/** `ceil(total / limit)`; 0 for an empty list. */
export function totalPages(total: number, limit: number): number {
  return total > 0 ? Math.ceil(total / limit) : 0;
}

/** Escapes text for use inside a regular expression, so a search is always a literal substring. */
export function escapeRegExp(text: string): string {
  // A NUL is written as its escape: a database refuses a pattern that holds the byte itself.
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\0/g, '\\x00');
}
