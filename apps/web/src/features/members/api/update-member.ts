import { type Member, type UpdateMemberRequest } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { reloadAccount } from '../../../lib/account';
import { apiRequest } from '../../../lib/api-client';
import { MEMBERS_QUERY_KEY } from './list-members';

/** PUT /api/v1/members/:id changes a member's name, role or applications. */
export function useUpdateMember(memberId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateMemberRequest) =>
      apiRequest<Member>(`/api/v1/members/${encodeURIComponent(memberId)}`, { method: 'PUT', body }),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: MEMBERS_QUERY_KEY }),
        // The top bar shows the signed-in member's display name from the account.
        reloadAccount(),
      ]),
  });
}
