/** True for MongoDB's (and FerretDB's) duplicate-key error, E11000. */
export function isDuplicateKeyError(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 11000
  );
}
