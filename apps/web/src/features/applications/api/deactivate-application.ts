import type { DeactivateApplicationRequest } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { APPLICATIONS_QUERY_KEY } from '../../../api/applications/list-applications';

/** POST /api/v1/applications/:id/deactivate with the typed name as confirmation. */
export function useDeactivateApplication(applicationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: DeactivateApplicationRequest) =>
      apiRequest(`/api/v1/applications/${encodeURIComponent(applicationId)}/deactivate`, {
        method: 'POST',
        body,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: APPLICATIONS_QUERY_KEY }),
  });
}
