import type { FastifyInstance } from 'fastify';
import { routeBodyValues } from './body-limit';

/** Deeper than any body the API takes (an order is three levels), far from the parsers' limits. */
export const MAX_JSON_DEPTH = 32;

/**
 * Values a JSON body may hold unless its route says otherwise (`@BodyLimit(bytes, { values })`): the
 * largest bodies the API takes (an order of 50 lines, a delivery zone of 200 areas) hold a few hundred.
 */
export const MAX_JSON_VALUES = 1000;

export interface JsonShape {
  /** How deeply arrays and objects nest. */
  depth: number;
  /** Array items and object fields (an empty `[]` or `{}` counts as one). */
  values: number;
  /** The body's first character that is not blank: `{` for an object, `[` for an array. */
  first: string;
}

/**
 * The shape of `text` in one pass, without parsing it (brackets and commas inside strings are
 * skipped); stops once deeper than `maxDepth` or holding more than `maxValues` values.
 */
export function jsonShape(
  text: string,
  maxDepth = MAX_JSON_DEPTH,
  maxValues = Number.MAX_SAFE_INTEGER,
): JsonShape {
  let depth = 0;
  let deepest = 0;
  let values = 0;
  let first = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    // Blanks, and a byte order mark (which the parser skips too), come before the first value.
    if (!first && c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09 && c !== 0xfeff)
      first = text[i]!;
    if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      // A container counts as its first value: `[a,b,c]` is one bracket and two commas.
      values++;
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > maxDepth || values > maxValues) break;
    } else if (c === 0x2c) {
      values++;
      if (values > maxValues) break;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return { depth: deepest, values, first };
}

/** How deeply `text` nests arrays and objects; stops counting once past `limit`. */
export const jsonDepth = (text: string, limit = MAX_JSON_DEPTH): number =>
  jsonShape(text, limit).depth;

const refuse = (statusCode: number, message: string) =>
  Object.assign(new Error(message), { statusCode });

/**
 * Fastify's own JSON parser (with its prototype-poisoning protection), after one pass over the text
 * that refuses, before anything is parsed or validated:
 * - a body that is not an object (every route takes an object): 400;
 * - a body nested more than MAX_JSON_DEPTH levels: 400 (validation and transformation walk a body
 *   recursively; 100,000 nested arrays would overflow the stack);
 * - a body of more values than its route takes: 413 (each value costs a few microseconds to
 *   transform and validate: a 1 MB `[{},{},…]` of 349,000 held the event loop for a second).
 * The bytes are bounded before this, while the body arrives (`@BodyLimit`, common/body-limit.ts).
 */
export function readJsonBodies(fastify: FastifyInstance): void {
  const parse = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    const maxValues = routeBodyValues(request.routeOptions.config) ?? MAX_JSON_VALUES;
    const shape = jsonShape(text, MAX_JSON_DEPTH, maxValues);
    // An empty body is left to the parser, which names it.
    if (shape.first && shape.first !== '{')
      return done(refuse(400, 'The body must be a JSON object'), undefined);
    if (shape.depth > MAX_JSON_DEPTH)
      return done(
        refuse(400, `The body is nested more than ${MAX_JSON_DEPTH} levels deep`),
        undefined,
      );
    if (shape.values > maxValues)
      return done(
        refuse(
          413,
          `The body holds too many values: at most ${maxValues.toLocaleString('en')} fields and list items in all`,
        ),
        undefined,
      );
    parse(request, text, done);
  });
}
