import type { EtimsListState } from '@spc/shared-contracts';

/** What the eTIMS queue is asked by: a state (none: everything not signed yet) and a page. */
export interface EtimsDocumentsFilter {
  state?: EtimsListState;
  page: number;
}

/** The query keys of eTIMS: a resend or a signature refreshes the queue and the summary. */
export const etimsKeys = {
  all: ['etims'] as const,
  documents: (filter: EtimsDocumentsFilter) => [...etimsKeys.all, 'documents', filter] as const,
  summary: (from: string, to: string) => [...etimsKeys.all, 'summary', { from, to }] as const,
};
