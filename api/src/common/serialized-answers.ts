import type { FastifyReply } from 'fastify';

/**
 * The JSON text of answers built around values that are reused as they are (a cached product-list
 * page, a product of the in-memory catalogue, both replaced, never changed, when the catalogue
 * changes), made once per value. Serialising the list page was the largest single cost of the product
 * list under load (a quarter of the CPU time, more in garbage collection).
 */
export class SerializedAnswers<T extends object> {
  private readonly texts = new WeakMap<T, string>();

  constructor(private readonly answer: (value: T) => object) {}

  /** Sends the answer for `value` as JSON text; a handler returns what this returns. */
  send(reply: FastifyReply, value: T): string {
    let text = this.texts.get(value);
    if (text === undefined) {
      text = JSON.stringify(this.answer(value));
      this.texts.set(value, text);
    }
    void reply.type('application/json; charset=utf-8');
    return text;
  }
}
