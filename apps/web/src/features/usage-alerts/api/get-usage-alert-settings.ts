import type { UsageAlertSettingsResponse } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** Everything about usage alerts: the settings and the month's notices; a save invalidates both. */
export const USAGE_ALERTS_QUERY_KEY = ['usage-alerts'] as const;

export const USAGE_ALERT_SETTINGS_QUERY_KEY = [...USAGE_ALERTS_QUERY_KEY, 'settings'] as const;

/**
 * GET /api/v1/usage-alerts (VIEW_PLAN_DETAIL): the thresholds, the extra recipients, the contract
 * they are for; without VIEW_BILLING the money thresholds are left out.
 */
export const usageAlertSettingsQueryOptions = queryOptions({
  queryKey: USAGE_ALERT_SETTINGS_QUERY_KEY,
  queryFn: ({ signal }) => apiRequest<UsageAlertSettingsResponse>('/api/v1/usage-alerts', { signal }),
});

export function useUsageAlertSettings() {
  return useQuery(usageAlertSettingsQueryOptions);
}
