/** True for a unique-index violation: MongoDB's E11000 (code 11000), on insert and on update. */
export function isDuplicateKeyError(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 11000;
}
