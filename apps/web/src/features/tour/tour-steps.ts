import type { TranslationKey } from '../../lib/i18n';
import type { TourAnchor } from '../../lib/tour-anchors';

export interface TourStep {
  /** The element the step points at; without one the step is shown in the middle of the window. */
  anchor?: TourAnchor;
  title: TranslationKey;
  text: TranslationKey;
}

/** The guided tour of the application list and the frame around it, in the order it is walked. */
export const TOUR_STEPS: readonly TourStep[] = [
  { title: 'tour.welcome.title', text: 'tour.welcome.text' },
  { anchor: 'application-list', title: 'tour.list.title', text: 'tour.list.text' },
  { anchor: 'application-search', title: 'tour.search.title', text: 'tour.search.text' },
  { anchor: 'create-application', title: 'tour.create.title', text: 'tour.create.text' },
  { anchor: 'application-console', title: 'tour.console.title', text: 'tour.console.text' },
  { anchor: 'application-menu', title: 'tour.menu.title', text: 'tour.menu.text' },
  { anchor: 'billing', title: 'tour.billing.title', text: 'tour.billing.text' },
  { anchor: 'manage-members', title: 'tour.members.title', text: 'tour.members.text' },
  { anchor: 'user-menu', title: 'tour.userMenu.title', text: 'tour.userMenu.text' },
];

/** The anchors in the left navigation, which is collapsed on a narrow window until opened. */
const NAVIGATION_ANCHORS: ReadonlySet<TourAnchor> = new Set(['billing', 'manage-members']);

export function isInNavigation(step: TourStep): boolean {
  return step.anchor !== undefined && NAVIGATION_ANCHORS.has(step.anchor);
}

/**
 * The steps to walk: those whose element is on the page. A step about what the member's role does
 * not show (Billing, Manage members, Create application) or what is not there yet (the cards of an
 * organisation without applications) is left out, so the count the tour shows is the real one.
 */
export function stepsOnPage(steps: readonly TourStep[], isOnPage: (anchor: TourAnchor) => boolean): TourStep[] {
  return steps.filter((step) => step.anchor === undefined || isOnPage(step.anchor));
}
