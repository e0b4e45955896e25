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

/** A route that reads a JSON body needs one, even when every field of it is optional. */
class BodyRequiredValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (
      metadata.type === 'body' &&
      metadata.metatype &&
      metadata.metatype !== Object &&
      (value === undefined || value === null)
    ) {
      throw new BadRequestException('This request needs a JSON body');
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
      return new BadRequestException({ message, code: 'VALIDATION_FAILED', errors: fieldErrors });
    },
  });
}
