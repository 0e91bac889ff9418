import {
  ConfirmInvitationResponseSchema,
  CreateInvitationsResponseSchema,
  InvitationSchema,
  ListInvitationsResponseSchema,
  PENDING_INVITATIONS_MAX,
  VerifyInvitationResponseSchema,
  type ConfirmInvitationRequest,
  type CreateInvitationsRequest,
} from '@portal/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { ACCOUNT_QUERY_KEY, clearSession } from '../../../lib/query-client';

const INVITATIONS_QUERY_KEY = ['invitations'] as const;

const invitationPath = (invitationId: string) => `/api/v1/invitations/${encodeURIComponent(invitationId)}`;

/** GET /api/v1/invitations: the open (pending or resent) invitations, at most 50 of them. */
export function useInvitations({ enabled = true } = {}) {
  return useQuery({
    queryKey: INVITATIONS_QUERY_KEY,
    queryFn: ({ signal }) =>
      apiRequest(`/api/v1/invitations?limit=${PENDING_INVITATIONS_MAX}`, {
        schema: ListInvitationsResponseSchema,
        signal,
      }),
    enabled,
  });
}

export function useCreateInvitations() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateInvitationsRequest) =>
      apiRequest('/api/v1/invitations', { method: 'POST', body, schema: CreateInvitationsResponseSchema }),
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
      apiRequest(`${invitationPath(invitationId)}/resend`, { method: 'POST', schema: InvitationSchema }),
    onSuccess: () => client.invalidateQueries({ queryKey: INVITATIONS_QUERY_KEY }),
  });
}

/** POST /api/invitations/verify: who the code invites, to which organisation. */
export function verifyInvitation(code: string, signal?: AbortSignal) {
  return apiRequest('/api/invitations/verify', {
    method: 'POST',
    body: { code },
    schema: VerifyInvitationResponseSchema,
    signal,
  });
}

/**
 * Creates the invitee's account. The answer signs them in, replacing any session the browser had,
 * so whatever an earlier user could see is forgotten and the account is loaded again.
 */
export function useConfirmInvitation(invitationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: ConfirmInvitationRequest) => {
      const joined = await apiRequest(`/api/invitations/${encodeURIComponent(invitationId)}/confirm`, {
        method: 'POST',
        body,
        schema: ConfirmInvitationResponseSchema,
      });
      clearSession(client);
      await client.invalidateQueries({ queryKey: ACCOUNT_QUERY_KEY });
      return joined;
    },
  });
}
