import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
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

/** A DTO class, as the validation metadata is keyed. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type DtoClass = abstract new (...args: any[]) => unknown;

/** class-transformer's record of `@Type(() => Class)`, to follow nested bodies (not in its typings). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as {
  defaultMetadataStorage: {
    findTypeMetadata(
      target: DtoClass,
      property: string,
    ): { typeFunction?: () => unknown } | undefined;
  };
};

/** At most this many field errors are listed; `moreErrors` counts the rest. */
export const MAX_LISTED_ERRORS = 20;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const constraintMessage = (meta: ValidationMetadata, property: string): string => {
  const message = meta.message as unknown;
  if (typeof message === 'string') return message;
  return `${property} must contain no more than ${String(meta.constraints?.[0])} elements`;
};

/**
 * The first problem that can be seen without validating the whole body: a field the class does not
 * declare, or a list longer than its `@ArrayMaxSize`, checked down through nested classes. It stops at
 * the first one, so a body of 80,000 unknown keys or 25,000 order lines costs one pass over its keys
 * instead of one validation error each (which took seconds and answered megabytes).
 */
export function firstShapeError(
  value: unknown,
  metatype: DtoClass,
  parent = '',
  depth = 0,
): FieldError | null {
  if (!isPlainObject(value) || depth > 8) return null;
  const metas = getMetadataStorage().getTargetValidationMetadatas(metatype, '', true, false);
  if (metas.length === 0) return null;
  const known = new Set(metas.map((m) => m.propertyName));
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key) || known.has(key)) continue;
    return {
      field: parent ? `${parent}.${key}` : key,
      messages: [`property ${key} should not exist`],
    };
  }
  for (const meta of metas) {
    const field = parent ? `${parent}.${meta.propertyName}` : meta.propertyName;
    const v = value[meta.propertyName];
    if (
      meta.name === 'arrayMaxSize' &&
      Array.isArray(v) &&
      v.length > Number(meta.constraints?.[0])
    ) {
      return { field, messages: [constraintMessage(meta, meta.propertyName)] };
    }
  }
  for (const property of known) {
    const type = defaultMetadataStorage.findTypeMetadata(metatype, property);
    const child = type?.typeFunction?.() as DtoClass | undefined;
    const v = value[property];
    if (!child || v === undefined || v === null) continue;
    const items = Array.isArray(v) ? v : [v];
    for (let i = 0; i < items.length; i++) {
      const path = Array.isArray(v)
        ? `${parent ? `${parent}.` : ''}${property}.${i}`
        : `${parent ? `${parent}.` : ''}${property}`;
      const found = firstShapeError(items[i], child, path, depth + 1);
      if (found) return found;
    }
  }
  return null;
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
    const remembered = this.rememberedQueries(value, metadata);
    if (!remembered) return this.check(value, metadata);
    const key = JSON.stringify(value);
    let checked = remembered.get(key);
    if (!checked) {
      checked = (await this.check(value, metadata)) as object;
      if (remembered.size >= REMEMBERED_QUERIES) remembered.delete(remembered.keys().next().value!);
      remembered.set(key, checked);
    }
    // A copy: a handler may change its query object without changing the remembered one.
    return Object.assign(
      Object.create(Object.getPrototypeOf(checked) as object) as object,
      checked,
    );
  }

  /** The remembered checked forms of this query class; undefined for anything but a whole query. */
  private rememberedQueries(
    value: unknown,
    metadata: ArgumentMetadata,
  ): Map<string, object> | undefined {
    if (
      metadata.type !== 'query' ||
      metadata.data !== undefined ||
      !metadata.metatype ||
      PLAIN_TYPES.includes(metadata.metatype) ||
      typeof value !== 'object' ||
      value === null
    )
      return undefined;
    let known = this.queries.get(metadata.metatype);
    if (!known) this.queries.set(metadata.metatype, (known = new Map()));
    return known;
  }

  private async check(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (
      metadata.type === 'body' &&
      !metadata.data &&
      metadata.metatype &&
      metadata.metatype !== Object &&
      (value === undefined || value === null)
    ) {
      throw new BadRequestException('This request needs a JSON body');
    }
    // A whole body read into a class is an object: a list or a bare value is refused before the
    // class is built from it (which costs per item).
    if (
      metadata.type === 'body' &&
      !metadata.data &&
      metadata.metatype &&
      !PLAIN_TYPES.includes(metadata.metatype) &&
      !isPlainObject(value)
    ) {
      throw new BadRequestException('The body must be a JSON object');
    }
    // One optional field of the body (`@Body('refund')`), absent: nothing to validate.
    if (metadata.type === 'body' && metadata.data && (value === undefined || value === null)) {
      return undefined;
    }
    if ((metadata.type === 'body' || metadata.type === 'query') && metadata.metatype) {
      const problem = firstShapeError(value, metadata.metatype as DtoClass);
      if (problem) {
        throw new BadRequestException({ message: problem.messages[0], errors: [problem] });
      }
    }
    return super.transform(value, metadata);
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
      const more = fieldErrors.length - MAX_LISTED_ERRORS;
      return new BadRequestException({
        message,
        code: 'VALIDATION_FAILED',
        errors: fieldErrors.slice(0, MAX_LISTED_ERRORS),
        ...(more > 0 ? { moreErrors: more } : {}),
      });
    },
  });
}
