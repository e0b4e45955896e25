import type { FastifyReply } from 'fastify';

/** Replies whose handler answers JSON text from {@link SerializedAnswers}. */
const serializedReplies = new WeakSet<FastifyReply>();

/**
 * True when the handler answering on `reply` returned the whole answer as JSON bytes (a Buffer, the
 * envelope `{ success, message, ... }` included) from {@link SerializedAnswers}. Whatever post-processes
 * handlers' results (an interceptor wrapping data in the envelope) must pass such an answer through
 * unchanged: wrapping or serialising it again would nest the text in a string, and rebuilding it
 * would lose the point of the cache.
 */
export function isSerializedAnswer(reply: FastifyReply): boolean {
  return serializedReplies.has(reply);
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
    let text = this.texts.get(value);
    if (text === undefined) {
      text = Buffer.from(JSON.stringify(this.answer(value)));
      this.texts.set(value, text);
    }
    void reply.type('application/json; charset=utf-8');
    serializedReplies.add(reply);
    return text;
  }
}
