import { type Member } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { MEMBERS_QUERY_KEY } from './list-members';

/** GET /api/v1/members/:id, or /api/v1/members/me for the signed-in member's own profile. */
export function useMember(memberId: string | 'me') {
  return useQuery({
    queryKey: [...MEMBERS_QUERY_KEY, 'one', memberId],
    queryFn: ({ signal }) =>
      apiRequest<Member>(`/api/v1/members/${encodeURIComponent(memberId)}`, { signal }),
  });
}
