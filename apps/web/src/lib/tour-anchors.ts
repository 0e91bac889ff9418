/**
 * The elements the guided tour points at (features/tour), each marked by the feature that draws it
 * with `tourAnchor(name)`: one vocabulary, so a feature never imports another to find its parts.
 */
export const TOUR_ANCHORS = [
  'application-list',
  'application-search',
  'create-application',
  'application-console',
  'application-menu',
  'navigation-toggle',
  'billing',
  'manage-members',
  'user-menu',
] as const;
export type TourAnchor = (typeof TOUR_ANCHORS)[number];

export const TOUR_ANCHOR_ATTRIBUTE = 'data-tour';

/** The attribute that marks an element for the tour. */
export function tourAnchor(name: TourAnchor): { [TOUR_ANCHOR_ATTRIBUTE]: TourAnchor } {
  return { [TOUR_ANCHOR_ATTRIBUTE]: name };
}

/** The CSS selector of an anchor's elements (the first one in the page is the tour's). */
export function tourAnchorSelector(name: TourAnchor): string {
  return `[${TOUR_ANCHOR_ATTRIBUTE}="${name}"]`;
}
