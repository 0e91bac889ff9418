import {
  type ConfirmInvitationResponse,
  type CreateInvitationsResponse,
  type Invitation,
  type ListInvitationsResponse,
  PENDING_INVITATIONS_MAX,
  type VerifyInvitationResponse,
  type ConfirmInvitationRequest,
  type CreateInvitationsRequest,
} from '@portal/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { endSession, reloadAccount } from '../../../lib/account';

const INVITATIONS_QUERY_KEY = ['invitations'] as const;

const invitationPath = (invitationId: string) => `/api/v1/invitations/${encodeURIComponent(invitationId)}`;

/** GET /api/v1/invitations: the open (pending or resent) invitations, at most 50 of them. */
export function useInvitations({ enabled = true } = {}) {
  return useQuery({
    queryKey: INVITATIONS_QUERY_KEY,
    queryFn: ({ signal }) =>
      apiRequest<ListInvitationsResponse>(`/api/v1/invitations?limit=${PENDING_INVITATIONS_MAX}`, {
        signal,
      }),
    enabled,
  });
}

export function useCreateInvitations() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateInvitationsRequest) =>
      apiRequest<CreateInvitationsResponse>('/api/v1/invitations', { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: INVITATIONS_QUERY_KEY }),
  });
}

export function useCancelInvitation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (invitationId: string) => apiRequest(invitationPath(invitationId), { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: INVITATIONS_QUERY_KEY }),
  });
}

export function useResendInvitation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (invitationId: string) =>
      apiRequest<Invitation>(`${invitationPath(invitationId)}/resend`, { method: 'POST' }),
    onSuccess: () => client.invalidateQueries({ queryKey: INVITATIONS_QUERY_KEY }),
  });
}

/** POST /api/invitations/verify: who the code invites, to which organisation. */
export function verifyInvitation(code: string, signal?: AbortSignal) {
  return apiRequest<VerifyInvitationResponse>('/api/invitations/verify', {
    method: 'POST',
    body: { code },
    signal,
  });
}

/**
 * Creates the invitee's account. The answer signs them in, replacing any session the browser had,
 * so whatever an earlier user could see is forgotten and the account is loaded again.
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
