import { uiPermissions, type ListUsageAlertNoticesResponse, type Permission } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { USAGE_ALERTS_QUERY_KEY } from './get-usage-alert-settings';

export const USAGE_ALERT_NOTICES_QUERY_KEY = [...USAGE_ALERTS_QUERY_KEY, 'notices'] as const;

/**
 * GET /api/v1/usage-alerts/notices (VIEW_PLAN_DETAIL): this month's thresholds crossed that are
 * still set; money kinds only with VIEW_BILLING.
 */
export const usageAlertNoticesQueryOptions = queryOptions({
  queryKey: USAGE_ALERT_NOTICES_QUERY_KEY,
  queryFn: ({ signal }) =>
    apiRequest<ListUsageAlertNoticesResponse>('/api/v1/usage-alerts/notices', { signal }),
});

/** Whoever sees plan details sees the notices, above the application list. */
export const seesUsageAlertNotices = (permissions: readonly Permission[]): boolean =>
  uiPermissions(permissions).includes('VIEW_PLAN_DETAIL');

/** Asked only when `enabled` (the caller may see plan details). */
export function useUsageAlertNotices(enabled: boolean) {
  return useQuery({ ...usageAlertNoticesQueryOptions, enabled });
}
