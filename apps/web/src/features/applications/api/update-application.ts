import { type Application, type UpdateApplicationRequest } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { APPLICATIONS_QUERY_KEY } from '../../../api/applications/list-applications';

/** PUT /api/v1/applications/:id renames the app; the list reloads to show the new name. */
export function useUpdateApplication(applicationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateApplicationRequest) =>
      apiRequest<Application>(`/api/v1/applications/${encodeURIComponent(applicationId)}`, {
        method: 'PUT',
        body,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: APPLICATIONS_QUERY_KEY }),
  });
}
