import { describe, expect, it } from 'vitest';
import { TOUR_ANCHORS, type TourAnchor } from '../../lib/tour-anchors';
import { isStartTourRequest, START_TOUR_STATE } from './tour-request';
import { isInNavigation, stepsOnPage, TOUR_STEPS } from './tour-steps';

const anchorsOf = (steps: readonly { anchor?: TourAnchor }[]) => steps.map((step) => step.anchor ?? 'welcome');

describe('the guided tour steps', () => {
  it('walks the list, its search and filters, creating, a card, billing, members and the user menu', () => {
    expect(anchorsOf(TOUR_STEPS)).toEqual([
      'welcome',
      'application-list',
      'application-search',
      'create-application',
      'application-console',
      'application-menu',
      'billing',
      'manage-members',
      'user-menu',
    ]);
    for (const step of TOUR_STEPS) if (step.anchor) expect(TOUR_ANCHORS).toContain(step.anchor);
  });

  it('leaves out the steps whose element the page does not show, keeping the welcome', () => {
    // A developer's page with no applications yet: no cards, no Billing, no Manage members.
    const shown = new Set<TourAnchor>(['create-application', 'user-menu']);
    expect(anchorsOf(stepsOnPage(TOUR_STEPS, (anchor) => shown.has(anchor)))).toEqual([
      'welcome',
      'create-application',
      'user-menu',
    ]);
    expect(stepsOnPage(TOUR_STEPS, () => true)).toEqual(TOUR_STEPS);
  });

  it('knows which steps are about the left navigation', () => {
    expect(TOUR_STEPS.filter(isInNavigation).map((step) => step.anchor)).toEqual(['billing', 'manage-members']);
  });
});

describe('a request to start the tour', () => {
  it('is the navigation state /open-appcues hands on, and nothing else', () => {
    expect(isStartTourRequest(START_TOUR_STATE)).toBe(true);
    expect(isStartTourRequest(structuredClone(START_TOUR_STATE))).toBe(true);
    for (const state of [null, undefined, 'startTour', { startTour: 'true' }, { other: true }]) {
      expect(isStartTourRequest(state)).toBe(false);
    }
  });
});
