import { unwrap } from '@spc/shared-contracts/web-client';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { tillKeys } from './till-keys';

/** The most staff a nursery has; the list is read in one page. */
const APPROVERS_PAGE = 100;

/** `GET /api/staff`: the active staff, who may approve a void or a refund with their PIN. */
export async function getApprovers() {
  const answer = unwrap(
    await api.GET('/api/staff', { params: { query: { page: 1, limit: APPROVERS_PAGE } } }),
  );
  return answer.staff.map((s) => ({ value: s._id, label: s.fullName }));
}

export const useApprovers = () =>
  useQuery({ queryKey: tillKeys.approvers(), queryFn: getApprovers });
