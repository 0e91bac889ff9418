import { type ConfirmInvitationRequest, type ConfirmInvitationResponse } from '@portal/contracts';
import { useMutation } from '@tanstack/react-query';
import { endSession, reloadAccount } from '../../../lib/account';
import { apiRequest } from '../../../lib/api-client';

/**
 * POST /api/invitations/:id/confirm creates the invitee's account. The answer signs them in,
 * replacing any session the browser had, so whatever an earlier user could see is forgotten and the
 * account is loaded again.
 */
export function useConfirmInvitation(invitationId: string) {
  return useMutation({
    mutationFn: async (body: ConfirmInvitationRequest) => {
      const joined = await apiRequest<ConfirmInvitationResponse>(
        `/api/invitations/${encodeURIComponent(invitationId)}/confirm`,
        {
          method: 'POST',
          body,
        },
      );
      endSession();
      await reloadAccount();
      return joined;
    },
  });
}
