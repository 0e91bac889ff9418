import { lazy, Suspense } from 'react';
import { useSignedInAccount } from '../../../lib/account';
import { seesUsageAlertNotices, useUsageAlertNotices } from '../api/list-usage-alert-notices';

// The notices' wording and markup load only when there is a notice to show.
const UsageAlertNoticeList = lazy(() => import('./usage-alert-notice-list'));

/**
 * Above the application list (decision 044): this month's usage alerts crossed, for those who see
 * plan details. The list never waits for it, and a failure to read the notices shows nothing.
 */
export function UsageAlertBanner() {
  const allowed = seesUsageAlertNotices(useSignedInAccount().permissions);
  const notices = useUsageAlertNotices(allowed);
  const results = notices.data?.results;
  if (!allowed || !results || results.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <UsageAlertNoticeList notices={results} />
    </Suspense>
  );
}
