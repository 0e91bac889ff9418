import {
  type ListMembersResponse,
  type Member,
  type ChangePasswordRequest,
  type UpdateMemberRequest,
} from '@portal/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { reloadAccount } from '../../../lib/account';

/** Every members query (list, one member, me); changes invalidate this prefix. */
export const MEMBERS_QUERY_KEY = ['members'] as const;

const memberPath = (memberId: string) => `/api/v1/members/${encodeURIComponent(memberId)}`;

/** GET /api/v1/members: the page asks for up to the organisation's memberLimit (§7). */
export function useMembers(limit: number) {
  return useQuery(
    queryOptions({
      queryKey: [...MEMBERS_QUERY_KEY, 'list', { limit }],
      queryFn: ({ signal }) => apiRequest<ListMembersResponse>(`/api/v1/members?limit=${limit}`, { signal }),
    }),
  );
}

/** GET /api/v1/members/:id, or /api/v1/members/me for the signed-in member's own profile. */
export function useMember(memberId: string | 'me') {
  return useQuery({
    queryKey: [...MEMBERS_QUERY_KEY, 'one', memberId],
    queryFn: ({ signal }) => apiRequest<Member>(memberPath(memberId), { signal }),
  });
}

export function useUpdateMember(memberId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateMemberRequest) =>
      apiRequest<Member>(memberPath(memberId), { method: 'PUT', body }),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: MEMBERS_QUERY_KEY }),
        // The top bar shows the signed-in member's display name from the account.
        reloadAccount(),
      ]),
  });
}

export function useDeleteMember() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (memberId: string) => apiRequest(memberPath(memberId), { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: MEMBERS_QUERY_KEY }),
  });
}

export function useChangePassword(memberId: string) {
  return useMutation({
    mutationFn: (body: ChangePasswordRequest) =>
      apiRequest(`${memberPath(memberId)}/password`, { method: 'PUT', body }),
  });
}
