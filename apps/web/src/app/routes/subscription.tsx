import { withMantine } from '../../components/mantine-shell';
import { SubscriptionPage } from '../../features/billing/components/subscription-page';
import { UsageAlertsSection } from '../../features/usage-alerts/components/usage-alerts-section';

/** Subscription and licenses, with the usage alerts' section (decision 044). */
function Subscription() {
  return <SubscriptionPage usageAlerts={<UsageAlertsSection />} />;
}

export const Component = withMantine(Subscription);
