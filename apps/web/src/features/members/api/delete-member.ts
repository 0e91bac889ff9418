import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { MEMBERS_QUERY_KEY } from './list-members';

/** DELETE /api/v1/members/:id removes a member from the organisation. */
export function useDeleteMember() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (memberId: string) =>
      apiRequest(`/api/v1/members/${encodeURIComponent(memberId)}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: MEMBERS_QUERY_KEY }),
  });
}
