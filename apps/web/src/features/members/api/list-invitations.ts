import { type ListInvitationsResponse, PENDING_INVITATIONS_MAX } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** The list of open invitations; creating, cancelling or resending one invalidates it. */
export const INVITATIONS_QUERY_KEY = ['invitations'] as const;

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
