import {
  BadRequestException,
  ValidationPipe,
  type ArgumentMetadata,
  type ValidationError,
} from '@nestjs/common';

export interface FieldError {
  field: string;
  messages: string[];
}

function flatten(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = error.constraints ? [{ field, messages: Object.values(error.constraints) }] : [];
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

/** Query strings remembered per query class (the oldest forgotten first beyond this). */
export const REMEMBERED_QUERIES = 1000;
const PLAIN_TYPES: unknown[] = [String, Boolean, Number, Array, Object, Buffer, Date];

/**
 * A route that reads a JSON body needs one, even when every field of it is optional. A query object
 * is checked once per distinct query: its checked and converted form is remembered, and a request
 * with the same query gets a copy of it (class-transformer and class-validator cost more per request
 * than answering a product list from memory; the storefront asks the same few lists over and over).
 * Refused queries are not remembered.
 */
class BodyRequiredValidationPipe extends ValidationPipe {
  private readonly queries = new Map<unknown, Map<string, object>>();

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (
      metadata.type === 'body' &&
      metadata.metatype &&
      metadata.metatype !== Object &&
      (value === undefined || value === null)
    ) {
      throw new BadRequestException('This request needs a JSON body');
    }
    if (
      metadata.type !== 'query' ||
      metadata.data !== undefined ||
      !metadata.metatype ||
      PLAIN_TYPES.includes(metadata.metatype) ||
      typeof value !== 'object' ||
      value === null
    ) {
      return super.transform(value, metadata);
    }
    let known = this.queries.get(metadata.metatype);
    if (!known) this.queries.set(metadata.metatype, (known = new Map()));
    const key = JSON.stringify(value);
    let checked = known.get(key);
    if (!checked) {
      checked = (await super.transform(value, metadata)) as object;
      if (known.size >= REMEMBERED_QUERIES) known.delete(known.keys().next().value!);
      known.set(key, checked);
    }
    // A copy: a handler may change its query object without changing the remembered one.
    return Object.assign(
      Object.create(Object.getPrototypeOf(checked) as object) as object,
      checked,
    );
  }
}

/**
 * The one validation pipe: unknown fields and wrong types (an object such as `{"$ne": null}` where
 * a string belongs) are a 400 before any handler runs. The first problem becomes the message.
 */
export function createValidationPipe(): ValidationPipe {
  return new BodyRequiredValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => {
      const fieldErrors = flatten(errors);
      const message = fieldErrors[0]?.messages[0] ?? 'The request is not valid';
      return new BadRequestException({ message, errors: fieldErrors });
    },
  });
}
