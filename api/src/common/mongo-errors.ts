/**
 * True for a unique-index violation: MongoDB's E11000 (code 11000). FerretDB v1 answers an insert
 * with 11000 but an update with a generic error whose text carries SQLite's "UNIQUE constraint failed".
 */
export function isDuplicateKeyError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return (
    code === 11000 ||
    (typeof message === 'string' && /E11000|UNIQUE constraint failed/.test(message))
  );
}
