import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { INVITATIONS_QUERY_KEY } from './list-invitations';

/** DELETE /api/v1/invitations/:id cancels an open invitation. */
export function useCancelInvitation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (invitationId: string) =>
      apiRequest(`/api/v1/invitations/${encodeURIComponent(invitationId)}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: INVITATIONS_QUERY_KEY }),
  });
}
