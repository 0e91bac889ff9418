import { type ChangePasswordRequest } from '@portal/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** PUT /api/v1/members/:id/password: the signed-in member's own password. */
export function useChangePassword(memberId: string) {
  return useMutation({
    mutationFn: (body: ChangePasswordRequest) =>
      apiRequest(`/api/v1/members/${encodeURIComponent(memberId)}/password`, { method: 'PUT', body }),
  });
}
