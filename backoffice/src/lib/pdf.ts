import { BACKOFFICE_MESSAGES } from '@spc/shared-contracts';
import { env } from '../config/env';
import { webClient } from './api-client';

const apiBase = env.apiUrl.replace(/\/$/, '');

/**
 * Downloads a PDF the API serves to signed-in callers (a receipt, a delivery note): the token goes
 * in a header, so a plain link cannot carry it; the file is fetched and handed to the browser.
 * Throws the API's message when it refuses (e.g. an unpaid order's receipt).
 */
export async function downloadPdf(path: string, filename: string): Promise<void> {
  const token = webClient.session.getState().token;
  const res = await webClient.fetch(`${apiBase}${path}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { message?: string } | null;
    throw new Error(body?.message ?? BACKOFFICE_MESSAGES.somethingWentWrong);
  }
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
