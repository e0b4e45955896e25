import { applyDecorators, type Type } from '@nestjs/common';
import { ApiProperty, ApiResponse, IntersectionType } from '@nestjs/swagger';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * True when a handler's result is a whole answer already serialised: JSON bytes (a Buffer, the
 * envelope included) from the catalogue's read model, sent with its content type set. Whatever
 * post-processes handlers' results (the `@Answer` wrapper) passes such a result through unchanged.
 */
export function isSerializedAnswer(result: unknown): result is Buffer {
  return Buffer.isBuffer(result);
}

/** `success` and `message`, the two fields every successful answer starts with. */
export class MessageDto {
  @ApiProperty({ example: true })
  success!: boolean;
  @ApiProperty({ example: 'Done' })
  message!: string;
}

/**
 * The answer to a route: `{ success: true, message, ...data }`, documented as the envelope of the
 * route's own data class (`class OrderResponseDto extends Envelope(OrderData) {}`), so Swagger UI
 * and the generated types show the real fields.
 */
export function Envelope<T>(data: Type<T>): Type<MessageDto & T> {
  return IntersectionType(MessageDto, data) as Type<MessageDto & T>;
}

/** The envelope around `data`; for the few answers built before a handler returns (cached JSON). */
export function envelope<T extends object>(message: string, data?: T): MessageDto & T {
  return { success: true, message, ...(data as T) };
}

/**
 * Data answered with another message than the route's declared one, for the answers whose words
 * depend on the outcome ("was already deactivated", "was already placed"): `return said(text, data)`.
 */
export class Said<T> {
  constructor(
    readonly message: string,
    readonly data: T,
  ) {}
}

export function said<T>(message: string, data: T): Said<T> {
  return new Said(message, data);
}

/** What a handler declared with `@Answer` returns: its data, or its data with another message. */
export type Answered<T> = T | Said<T>;

/**
 * Declares a route's answer beside it: the message, and the envelope class Swagger shows for the
 * status (200 unless told). The handler returns only the data; the decorator wraps what it returns
 * in `{ success: true, message, ...data }` (or its own message, with {@link said}).
 *
 * The wrapping is done here, around the handler itself, rather than by a global Nest interceptor:
 * an interceptor costs every request of every route two `AsyncResource.bind` calls and an RxJS
 * pipeline in Nest's interceptor consumer, about 15% of the API's CPU time on its hottest reads
 * (measured with `npm run bench`, BENCH_PROFILE=1). With no interceptor registered Nest skips that
 * machinery altogether.
 */
export function Answer(
  message: string,
  type: Type<unknown> = MessageDto,
  options: { status?: number; description?: string } = {},
) {
  return applyDecorators(
    ApiResponse({ status: options.status ?? 200, type, description: options.description }),
    answerWith(message),
  );
}

/** The envelope around what a handler declared with `@Answer(message)` returned. */
export function toAnswer(message: string, data: unknown): unknown {
  // JSON text already serialised (cached answers) is sent as it is.
  if (typeof data === 'string' || isSerializedAnswer(data)) return data;
  if (data instanceof Said) return envelope(data.message, (data.data ?? {}) as object);
  return envelope(message, (data ?? {}) as object);
}

/**
 * Replaces the handler with one that awaits it and wraps its result. Nest and Swagger keep their
 * route metadata on the handler function: what the decorators applied before this one put on the
 * original is copied to the wrapper, and those applied after it write on the wrapper itself.
 */
function answerWith(message: string): MethodDecorator {
  return (_target, _key, descriptor: PropertyDescriptor) => {
    const handler = descriptor.value as (...args: unknown[]) => unknown;
    const wrapped = async function (this: unknown, ...args: unknown[]): Promise<unknown> {
      return toAnswer(message, await handler.apply(this, args));
    };
    for (const key of Reflect.getOwnMetadataKeys(handler) as unknown[])
      Reflect.defineMetadata(key, Reflect.getOwnMetadata(key, handler), wrapped);
    Object.defineProperty(wrapped, 'name', { value: handler.name });
    descriptor.value = wrapped;
    return descriptor;
  };
}
