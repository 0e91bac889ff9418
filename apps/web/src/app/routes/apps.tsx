import { ApplicationsPage } from '../../features/applications/components/applications-page';
import { GuidedTour } from '../../features/tour/components/guided-tour';
import { UsageAlertBanner } from '../../features/usage-alerts/components/usage-alert-banner';

/**
 * The application list, with the guided tour that walks it (decision 039) and the usage alerts
 * crossed this month (decision 044).
 */
export function Component() {
  return <ApplicationsPage tour={<GuidedTour />} notices={<UsageAlertBanner />} />;
}
