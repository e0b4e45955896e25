import { BadRequestException, Injectable, type PipeTransform } from '@nestjs/common';
import { OBJECT_ID_PATTERN } from '@spc/shared-contracts';

/** Route ids must be MongoDB ObjectIds: anything else is a clear 400, never a cast error or a 500. */
@Injectable()
export class ParseObjectIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (typeof value !== 'string' || !OBJECT_ID_PATTERN.test(value)) {
      throw new BadRequestException(`"${String(value).slice(0, 40)}" is not a valid id`);
    }
    return value.toLowerCase();
  }
}

export function isObjectId(value: unknown): value is string {
  return typeof value === 'string' && OBJECT_ID_PATTERN.test(value);
}

/** Bodies of the `{ _id, updated... }` shape repeat the path's id; they must agree. */
export function assertBodyIdMatches(bodyId: string, pathId: string): void {
  if (bodyId.toLowerCase() !== pathId) {
    throw new BadRequestException('The _id in the body does not match the id in the path');
  }
}
