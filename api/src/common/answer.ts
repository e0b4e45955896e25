import {
  applyDecorators,
  Injectable,
  SetMetadata,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
  type Type,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiProperty, ApiResponse, IntersectionType } from '@nestjs/swagger';
import { map, type Observable } from 'rxjs';
import { isSerializedAnswer } from './serialized-answers';

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

const ANSWER_MESSAGE = 'spc:answer-message';

/**
 * Declares a route's answer beside it: the message, and the envelope class Swagger shows for the
 * status (200 unless told). The handler returns only the data; `AnswerInterceptor` wraps it.
 */
export function Answer(
  message: string,
  type: Type<unknown> = MessageDto,
  options: { status?: number; description?: string } = {},
) {
  return applyDecorators(
    SetMetadata(ANSWER_MESSAGE, message),
    ApiResponse({ status: options.status ?? 200, type, description: options.description }),
  );
}

/**
 * Wraps what a handler declared with `@Answer` returns in `{ success: true, message, ...data }`.
 * Handlers without `@Answer` and JSON text already serialised (cached answers) pass unchanged.
 */
@Injectable()
export class AnswerInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const message = this.reflector.get<string | undefined>(ANSWER_MESSAGE, context.getHandler());
    if (message === undefined) return next.handle();
    return next.handle().pipe(
      map((data: unknown) => {
        if (typeof data === 'string' || isSerializedAnswer(data)) return data;
        if (data instanceof Said) return envelope(data.message, (data.data ?? {}) as object);
        return envelope(message, (data ?? {}) as object);
      }),
    );
  }
}
