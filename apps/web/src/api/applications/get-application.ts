import type { Application } from '@portal/contracts';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client';
import { APPLICATIONS_QUERY_KEY } from './list-applications';

/** GET /api/v1/applications/:id */
export function getApplication(applicationId: string, signal?: AbortSignal) {
  return apiRequest<Application>(`/api/v1/applications/${encodeURIComponent(applicationId)}`, { signal });
}

/** One application, under the applications prefix so list mutations refresh it too. */
export const applicationQueryOptions = (applicationId: string) =>
  queryOptions({
    queryKey: [...APPLICATIONS_QUERY_KEY, 'detail', applicationId],
    queryFn: ({ signal }) => getApplication(applicationId, signal),
  });
