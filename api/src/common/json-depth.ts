import type { FastifyInstance } from 'fastify';

/** Deeper than any body the API takes (an order is three levels), far from the parsers' limits. */
export const MAX_JSON_DEPTH = 32;

/**
 * How deeply `text` nests arrays and objects, counted without parsing (brackets inside strings are
 * skipped); stops counting once past `limit`.
 */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/**
 * Fastify's own JSON parser (with its prototype-poisoning protection), refusing with 400 a body nested
 * more than MAX_JSON_DEPTH levels before parsing it: validation and transformation walk a body
 * recursively, and 100,000 nested arrays would otherwise overflow the stack (a 500).
 */
export function limitJsonDepth(fastify: FastifyInstance): void {
  const parse = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonDepth(String(body)) > MAX_JSON_DEPTH) {
      const error = new Error(`The body is nested more than ${MAX_JSON_DEPTH} levels deep`);
      return done(Object.assign(error, { statusCode: 400 }), undefined);
    }
    parse(request, String(body), done);
  });
}
