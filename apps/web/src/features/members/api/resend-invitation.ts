import { type Invitation } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { INVITATIONS_QUERY_KEY } from './list-invitations';

/** POST /api/v1/invitations/:id/resend mails the invitation again with a new code. */
export function useResendInvitation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (invitationId: string) =>
      apiRequest<Invitation>(`/api/v1/invitations/${encodeURIComponent(invitationId)}/resend`, {
        method: 'POST',
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: INVITATIONS_QUERY_KEY }),
  });
}
