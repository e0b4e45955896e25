import { STOREFRONT_MESSAGES } from '@spc/shared-contracts';
import { env } from '../config/env';
import { NO_ANSWER_TEXT, webClient } from './api-client';

const apiBase = env.apiUrl.replace(/\/$/, '');

/** The API's URL of an order's document (with a signed link's query, when given). */
export function documentUrl(path: string, query?: URLSearchParams): string {
  const search = query?.toString();
  return `${apiBase}${path}${search ? `?${search}` : ''}`;
}

/**
 * Fetches a PDF the API serves: signed in (the token goes in a header, which a plain link cannot
 * carry) or with a signed link's query. Throws the API's message when it refuses.
 */
export async function fetchPdf(url: string, signedIn: boolean): Promise<Blob> {
  const token = signedIn ? webClient.session.getState().token : null;
  const res = await webClient
    .fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {} })
    .catch(() => {
      throw new Error(NO_ANSWER_TEXT);
    });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { message?: string } | null;
    throw new Error(body?.message ?? STOREFRONT_MESSAGES.somethingWentWrong);
  }
  return res.blob();
}

/** Hands a fetched file to the browser as a download. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
