import type { Application, ListApplicationsResponse } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client';

/** Every list of applications, whatever its limit; mutations invalidate this prefix. */
export const APPLICATIONS_QUERY_KEY = ['applications'] as const;

export const PROVISIONING_POLL_MS = 2_000;

/** The list reloads itself while an app is being provisioned, and stops once none is. */
export function provisioningRefetchInterval(apps: readonly Application[] | undefined): number | false {
  return apps?.some((app) => app.state === 'initializing') ? PROVISIONING_POLL_MS : false;
}

/** GET /api/v1/applications: the list page asks for up to the organisation's applicationLimit (§7). */
export const listApplicationsQueryOptions = (limit: number) =>
  queryOptions({
    queryKey: [...APPLICATIONS_QUERY_KEY, { limit }],
    queryFn: ({ signal }) =>
      apiRequest<ListApplicationsResponse>(`/api/v1/applications?limit=${limit}`, { signal }),
    // Cards of apps being provisioned turn active without a reload.
    refetchInterval: (query) => provisioningRefetchInterval(query.state.data?.data),
  });

export function useApplications(limit: number) {
  return useQuery(listApplicationsQueryOptions(limit));
}
