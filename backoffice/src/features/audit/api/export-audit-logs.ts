import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unwrap } from '@spc/shared-contracts/web-client';
import { downloadText } from '../../../lib/download';
import { auditApiQuery, type AuditFilters } from './audit-query';

/** The filtered trail as CSV, made by the server (at most AUDIT_EXPORT_LIMIT newest entries). */
export async function exportAuditLogs(filters: AuditFilters): Promise<string> {
  const result = await api.GET('/api/audit-logs/export', {
    params: { query: auditApiQuery(filters) },
    parseAs: 'text',
  });
  return unwrap(result) as string;
}

/** Downloads the CSV of the filters as `audit-trail-<from>-to-<to>.csv` (or of all days). */
export function useExportAuditLogs() {
  return useMutation({
    mutationFn: async (filters: AuditFilters) => {
      const csv = await exportAuditLogs(filters);
      const range =
        filters.from || filters.to ? `-${filters.from ?? 'start'}-to-${filters.to ?? 'today'}` : '';
      downloadText(`audit-trail${range}.csv`, csv, 'text/csv;charset=utf-8');
    },
    meta: { successToast: false },
  });
}
