import type { FastifyReply } from 'fastify';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * True when a handler's result is a whole answer already serialised: JSON bytes (a Buffer, the
 * envelope `{ success, message, ... }` included) from {@link SerializedAnswers}, sent with its content
 * type set. Whatever post-processes handlers' results (the `@Answer` wrapper putting data in the envelope)
 * must pass such a result through unchanged: wrapping or serialising it again would break it, and
 * rebuilding it would lose the point of the cache.
 */
export function isSerializedAnswer(result: unknown): result is Buffer {
  return Buffer.isBuffer(result);
}

/**
 * The JSON text of answers built around values that are reused as they are (a cached product-list
 * page, a product of the in-memory catalogue, both replaced, never changed, when the catalogue
 * changes), made once per value and kept as UTF-8 bytes. Serialising the list page was the largest
 * single cost of the product list under load (a quarter of the CPU time, more in garbage collection);
 * sending bytes rather than a string also spares measuring and encoding the text on every request.
 */
export class SerializedAnswers<T extends object> {
  private readonly texts = new WeakMap<T, Buffer>();

  constructor(private readonly answer: (value: T) => object) {}

  /** Sends the answer for `value` as JSON; a handler returns what this returns. */
  send(reply: FastifyReply, value: T): Buffer {
    void reply.type(JSON_CONTENT_TYPE);
    return this.text(value);
  }

  /** The answer's JSON bytes for `value`. */
  text(value: T): Buffer {
    let text = this.texts.get(value);
    if (text === undefined) {
      text = Buffer.from(JSON.stringify(this.answer(value)));
      this.texts.set(value, text);
    }
    return text;
  }
}
