import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { APPLICATIONS_QUERY_KEY } from '../../../api/applications/list-applications';

/** POST /api/v1/applications/:id/reactivate brings a deactivated app back. */
export function useReactivateApplication() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (applicationId: string) =>
      apiRequest(`/api/v1/applications/${encodeURIComponent(applicationId)}/reactivate`, { method: 'POST' }),
    onSuccess: () => client.invalidateQueries({ queryKey: APPLICATIONS_QUERY_KEY }),
  });
}
