import type { UsageAlertSettings, UsageAlertSettingsResponse } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { USAGE_ALERT_SETTINGS_QUERY_KEY } from './get-usage-alert-settings';
import { USAGE_ALERT_NOTICES_QUERY_KEY } from './list-usage-alert-notices';

/**
 * PUT /api/v1/usage-alerts (MANAGE_USAGE_ALERTS): the whole set; the answer is the settings as
 * GET gives them. A raised threshold hides its notice, so the month's notices are read again.
 */
export function useUpdateUsageAlertSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UsageAlertSettings) =>
      apiRequest<UsageAlertSettingsResponse>('/api/v1/usage-alerts', { method: 'PUT', body }),
    onSuccess: (settings) => {
      client.setQueryData(USAGE_ALERT_SETTINGS_QUERY_KEY, settings);
      void client.invalidateQueries({ queryKey: USAGE_ALERT_NOTICES_QUERY_KEY });
    },
  });
}
