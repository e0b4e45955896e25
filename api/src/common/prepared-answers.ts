import type { FastifyInstance, FastifyRequest } from 'fastify';
import { setNewest } from './bounded-map';
import { JSON_CONTENT_TYPE } from './serialized-answers';

export const PREPARED_ANSWERS_MAX_ENTRIES = 1000;

interface Entry {
  text: Buffer;
  expiresAt: number;
}

/**
 * Whole answers of public GET routes whose answer depends only on the URL and on data held in memory
 * (the product list), kept as the JSON bytes sent, by the URL exactly as the client
 * sent it (path and query string). A request for a URL answered before is served from here by a
 * Fastify hook ({@link servePreparedAnswers}) before Nest's guards, pipes and handler run: none of
 * them could change that answer, and together they were most of the CPU time of the hottest reads.
 * Only answers a handler produced (after validation, with status 200) are kept, so a URL never seen
 * valid always reaches the handler; different spellings of one query are separate entries.
 *
 * `clear()` drops every answer (the data changed); an answer computed across a clear is not kept (it
 * may predate the change): handlers take the generation before they compute and pass it back. The
 * TTL bounds how long an answer lives without a known change (other instances' writes reach this one
 * through `mustLook`, as they reach the lists).
 */
export class PreparedAnswers {
  private readonly entries = new Map<string, Entry>();
  private current = 0;
  private look?: () => Promise<void> | undefined;

  constructor(
    /** How long an answer lives without a known change. */
    private readonly ttlMs: number,
    private readonly maxEntries = PREPARED_ANSWERS_MAX_ENTRIES,
    private readonly now: () => number = Date.now,
  ) {}

  /** Taken by a handler before it computes its answer, and given back to {@link remember}. */
  get generation(): number {
    return this.current;
  }

  /**
   * The check for other instances' changes that reads from memory run first (CatalogSync): when one
   * is due, prepared answers are not served and the request goes through its handler, which waits
   * for it.
   */
  lookBeforeServing(look: () => Promise<void> | undefined): void {
    this.look = look;
  }

  /** The answer kept for `url`, unless it expired or a look at other instances' changes is due. */
  get(url: string): Buffer | undefined {
    const entry = this.entries.get(url);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(url);
      return undefined;
    }
    if (this.look?.()) return undefined;
    return entry.text;
  }

  /** Keeps `text` as the answer for `url`, unless the data changed since `generation` was taken. */
  remember(url: string, text: Buffer, generation: number): void {
    if (generation !== this.current) return;
    setNewest(this.entries, url, { text, expiresAt: this.now() + this.ttlMs }, this.maxEntries);
  }

  clear(): void {
    this.current += 1;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

/** Finds the prepared answer for a request, or undefined to let the route's handler answer it. */
export type PreparedAnswerLookup = (request: FastifyRequest) => Buffer | undefined;

/**
 * Answers GET requests to the routes of `lookups` (route patterns as registered, e.g.
 * `/api/products/:id`) with the answer their lookup finds, in a `preHandler` hook: after the
 * `onRequest` hooks (request id, security headers, CORS) and before the route's handler, so the answer
 * carries every header the handler's would, and the access log records it as any other. A request
 * the lookup finds nothing for goes on to its handler.
 */
export function servePreparedAnswers(
  fastify: FastifyInstance,
  lookups: Record<string, PreparedAnswerLookup>,
): void {
  const byRoute = new Map(Object.entries(lookups));
  fastify.addHook('preHandler', (request, reply, done) => {
    const lookup =
      request.method === 'GET' ? byRoute.get(request.routeOptions.url ?? '') : undefined;
    const text = lookup?.(request);
    if (text) {
      void reply.type(JSON_CONTENT_TYPE).send(text);
      return;
    }
    done();
  });
}
