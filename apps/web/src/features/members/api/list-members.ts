import { type ListMembersResponse } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** Every members query (list, one member, me); changes invalidate this prefix. */
export const MEMBERS_QUERY_KEY = ['members'] as const;

/** GET /api/v1/members: the page asks for up to the organisation's memberLimit (§7). */
export function useMembers(limit: number) {
  return useQuery({
    queryKey: [...MEMBERS_QUERY_KEY, 'list', { limit }],
    queryFn: ({ signal }) => apiRequest<ListMembersResponse>(`/api/v1/members?limit=${limit}`, { signal }),
  });
}
