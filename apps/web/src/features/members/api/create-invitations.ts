import { type CreateInvitationsRequest, type CreateInvitationsResponse } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { INVITATIONS_QUERY_KEY } from './list-invitations';

/** POST /api/v1/invitations invites one or more addresses; the invited list reloads. */
export function useCreateInvitations() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateInvitationsRequest) =>
      apiRequest<CreateInvitationsResponse>('/api/v1/invitations', { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: INVITATIONS_QUERY_KEY }),
  });
}
