/**
 * What /open-appcues hands the application list in navigation state to start the guided tour. In
 * navigation state, not the address: the request is used once, and a reload does not repeat it.
 */
export const START_TOUR_STATE = { startTour: true } as const;

export function isStartTourRequest(state: unknown): boolean {
  return typeof state === 'object' && state !== null && 'startTour' in state && state.startTour === true;
}
