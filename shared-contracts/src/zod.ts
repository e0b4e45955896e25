/**
 * zod, as every schema here imports it. In a browser it parses without compiling code: zod would
 * otherwise probe `new Function` when its first object schema is made, and the apps'
 * Content-Security-Policy (no eval) reports that probe as a violation. The schemas give the same
 * answers either way; the API (no such policy) keeps zod's compiled parsers.
 */
import { z } from 'zod';

if ('document' in globalThis) z.config({ jitless: true });

export { z };
