import { ApplicationsPage } from '../../features/applications/components/applications-page';
import { GuidedTour } from '../../features/tour/components/guided-tour';

/** The application list, with the guided tour that walks it (decision 039). */
export function Component() {
  return <ApplicationsPage tour={<GuidedTour />} />;
}
