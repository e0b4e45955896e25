/** An error answer of the API: `{ success: false, message, statusCode, errors? }`. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Reads an openapi-fetch result: the data, or an ApiError carrying the server's message. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || result.data === undefined) {
    const body = result.error as { message?: unknown } | undefined;
    const message = typeof body?.message === 'string' ? body.message : '';
    throw new ApiError(message, result.response.status);
  }
  const data = result.data as { success?: boolean; message?: string };
  // A response with success not true is an error too (spec §8).
  if (data && typeof data === 'object' && data.success === false) {
    throw new ApiError(data.message ?? '', result.response.status);
  }
  return result.data;
}

/** The server's message, else the screen's fallback text. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.message) return error.message;
  return fallback;
}
