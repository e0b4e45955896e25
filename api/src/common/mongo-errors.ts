/** True for a unique-index violation: MongoDB's E11000 (code 11000), on insert and on update. */
export function isDuplicateKeyError(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 11000;
}

/**
 * The indexed field a unique-index violation is about (`keyPattern`'s first field, else
 * `keyValue`'s), or undefined when the error is not one or does not say.
 */
export function duplicateKeyField(error: unknown): string | undefined {
  if (!isDuplicateKeyError(error)) return undefined;
  const e = error as { keyPattern?: Record<string, unknown>; keyValue?: Record<string, unknown> };
  return Object.keys(e.keyPattern ?? e.keyValue ?? {})[0];
}
