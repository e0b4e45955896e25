import type { TillCashUpView, TillSessionView } from '@spc/shared-contracts';
import { ApiError, unwrap } from '@spc/shared-contracts/web-client';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { looseApi, webClient } from '../../../lib/api-client';
import { downloadPdf } from '../../../lib/pdf';
import { refreshQueries } from '../../../lib/refresh-queries';
import { readIdentity, saveIdentity } from '../offline/offline-db';
import { tillKeys } from './till-keys';

/** `GET /api/till/sessions/current`: the signed-in clerk's open session, or null. */
export const getCurrentSession = async () =>
  (await unwrap(looseApi.GET<{ session: TillSessionView | null }>('/api/till/sessions/current')))
    .session ?? null;

/**
 * The open session, kept on the device with the clerk (issue 47); without network, the one kept
 * for the clerk signed in (a reload offline still opens the till).
 */
export async function getCurrentSessionOrKept(): Promise<TillSessionView | null> {
  const user = webClient.session.getState().user;
  try {
    const session = await getCurrentSession();
    if (user)
      await saveIdentity({
        staffId: user._id,
        name: user.fullName,
        role: user.role,
        session,
        savedAt: new Date().toISOString(),
      }).catch(() => undefined);
    return session;
  } catch (error) {
    if (error instanceof ApiError || !user) throw error;
    const kept = await readIdentity().catch(() => undefined);
    if (kept && kept.staffId === user._id) return kept.session;
    throw error;
  }
}

export const currentSessionQueryOptions = () =>
  queryOptions({
    queryKey: tillKeys.currentSession(),
    queryFn: getCurrentSessionOrKept,
    // Offline, the kept session answers: the query runs rather than waits for the network.
    networkMode: 'always',
  });

export const useCurrentSession = () => useQuery(currentSessionQueryOptions());

/** `GET /api/till/sessions?day=YYYY-MM-DD`: every session of a shop day (admins). */
export const getSessions = async (day: string) =>
  (
    await unwrap(
      looseApi.GET<{ sessions: TillSessionView[] }>('/api/till/sessions', {
        params: { query: { day } },
      }),
    )
  ).sessions;

export const useSessions = (day: string) =>
  useQuery({ queryKey: tillKeys.sessions(day), queryFn: () => getSessions(day) });

/** `GET /api/till/sessions/:id`: the session's cash-up. */
export const getCashUp = async (id: string) =>
  (await unwrap(looseApi.GET<{ cashUp: TillCashUpView }>(`/api/till/sessions/${id}`))).cashUp;

export const useCashUp = (id: string) =>
  useQuery({ queryKey: tillKeys.cashUp(id), queryFn: () => getCashUp(id) });

type SessionAnswer = { message: string; session: TillSessionView };

/** A session step; every till query refreshes after it. The API's refusal is the error toast. */
function useSessionStep<T, A>(send: (body: T) => Promise<A>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSettled: () => refreshQueries(client, tillKeys.all),
  });
}

/** `POST /api/till/sessions`: opens the clerk's session with its float. */
export const useOpenSession = () =>
  useSessionStep((body: { float: number }) =>
    unwrap(looseApi.POST<SessionAnswer>('/api/till/sessions', { body })),
  );

/** `POST /api/till/sessions/:id/close`: closes it with the cash counted; answers the cash-up. */
export const useCloseSession = (id: string) =>
  useSessionStep((body: { countedCash: number }) =>
    unwrap(
      looseApi.POST<{ message: string; cashUp: TillCashUpView }>(`/api/till/sessions/${id}/close`, {
        body,
      }),
    ),
  );

/** `POST /api/till/sessions/:id/reopen` (admins). */
export const useReopenSession = (id: string) =>
  useSessionStep(() =>
    unwrap(looseApi.POST<SessionAnswer>(`/api/till/sessions/${id}/reopen`, { body: {} })),
  );

/** The cash-up as the API makes it: `cash-up.pdf` or `cash-up.csv` (the export is audited). */
export const downloadCashUp = (id: string, kind: 'pdf' | 'csv') =>
  downloadPdf(`/api/till/sessions/${id}/cash-up.${kind}`, `till-cash-up-${id}.${kind}`);
