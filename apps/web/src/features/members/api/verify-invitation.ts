import { type VerifyInvitationResponse } from '@portal/contracts';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { SESSION_INDEPENDENT } from '../../../lib/query-client';

/** What an invitation code stands for; a code is verified once per page. */
export const INVITATION_VERIFICATION_QUERY_KEY = ['invitation'] as const;

/** POST /api/invitations/verify: who the code invites, to which organisation. */
export const verifyInvitationQueryOptions = (code: string) =>
  queryOptions({
    queryKey: [...INVITATION_VERIFICATION_QUERY_KEY, code],
    queryFn: ({ signal }) =>
      apiRequest<VerifyInvitationResponse>('/api/invitations/verify', {
        method: 'POST',
        body: { code },
        signal,
      }),
    staleTime: Infinity,
    meta: SESSION_INDEPENDENT,
  });
