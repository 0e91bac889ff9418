import { Navigate } from 'react-router';
import { START_TOUR_STATE } from '../../features/tour/tour-request';

/** §2 /open-appcues: not a page; it starts the guided tour on the application list, in its place. */
export function Component() {
  return <Navigate to="/apps/asc" replace state={START_TOUR_STATE} />;
}
