import type { TourOutcome } from '@portal/contracts';
import { driver, type DriveStep } from 'driver.js';
import 'driver.js/dist/driver.css';
import { t } from '../../lib/i18n';
import { tourAnchorSelector, type TourAnchor } from '../../lib/tour-anchors';
import { isInNavigation, stepsOnPage, TOUR_STEPS, type TourStep } from './tour-steps';
import './tour.css';

/** The guided tour on screen: `stop` takes it away without counting as finishing or skipping it. */
export interface RunningTour {
  stop(): void;
}

const find = (anchor: TourAnchor) => document.querySelector<HTMLElement>(tourAnchorSelector(anchor));

/** Resolves once `isDone` holds, checked again at each change of the element's attributes. */
function untilAttributesChange(element: HTMLElement, isDone: () => boolean): Promise<void> {
  if (isDone()) return Promise.resolve();
  return new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (!isDone()) return;
      observer.disconnect();
      resolve();
    });
    observer.observe(element, { attributes: true });
  });
}

/**
 * The left navigation, which a narrow window keeps collapsed: the tour opens it for the steps about
 * its entries, through its own toggle, and closes it again for the others and at the end.
 */
function navigationOpener() {
  let openedByTour: HTMLElement | null = null;

  async function toggle(navigation: HTMLElement, open: boolean) {
    const button = find('navigation-toggle');
    const isOpen = () => button?.getAttribute('aria-expanded') === 'true';
    if (!button || isOpen() === open) return;
    button.click();
    await untilAttributesChange(button, () => isOpen() === open);
    // The navigation slides in or out; the step is placed where it comes to rest.
    await Promise.all(navigation.getAnimations().map((animation) => animation.finished.catch(() => undefined)));
  }

  return {
    async prepareFor(step: TourStep) {
      if (isInNavigation(step) && step.anchor) {
        const navigation = find(step.anchor)?.closest('nav');
        if (!navigation || find('navigation-toggle')?.getAttribute('aria-expanded') !== 'false') return;
        openedByTour = navigation;
        await toggle(navigation, true);
      } else {
        await this.restore();
      }
    },
    async restore() {
      if (!openedByTour) return;
      const navigation = openedByTour;
      openedByTour = null;
      await toggle(navigation, false);
    },
  };
}

/**
 * The library marks the highlighted element (and its stand-in for a step without one) as opening a
 * dialog, with aria-expanded, which a card, a toolbar or a plain wrapper may not carry; the step is a
 * dialog of its own, named by its title, and does not need them.
 */
function clearPopupAttributes() {
  for (const element of document.querySelectorAll('.driver-active-element, #driver-dummy-element')) {
    for (const attribute of ['aria-haspopup', 'aria-expanded', 'aria-controls']) element.removeAttribute(attribute);
  }
}

/**
 * Starts the guided tour on the page as it is (decision 039): Next, Previous, the arrow keys and
 * Enter move, Esc or the close button skip it, and focus stays in the step. `onEnd` hears whether
 * the member finished it or left before the last step.
 */
export function runTour(onEnd: (outcome: TourOutcome) => void): RunningTour {
  const steps = stepsOnPage(TOUR_STEPS, (anchor) => find(anchor) !== null);
  const navigation = navigationOpener();
  let ended = false;
  let moving = false;

  const driveSteps: DriveStep[] = steps.map((step, index) => ({
    element: step.anchor && tourAnchorSelector(step.anchor),
    popover: {
      title: t(step.title),
      description: t(step.text),
      // Nothing to go back to from the first step.
      ...(index === 0 && { showButtons: ['next', 'close'] }),
    },
  }));

  async function show(index: number) {
    if (moving) return;
    moving = true;
    const step = steps[index];
    if (step) await navigation.prepareFor(step);
    moving = false;
    if (!ended) tour.drive(index);
  }

  /** Takes the tour away; with an outcome, the member ended it (rather than left the page). */
  function end(outcome?: TourOutcome) {
    if (ended) return;
    ended = true;
    tour.destroy();
    void navigation.restore();
    if (outcome) onEnd(outcome);
  }

  const tour = driver({
    steps: driveSteps,
    // Without the library's moving highlight, which also ignores the arrow keys while it moves.
    animate: false,
    showProgress: true,
    progressText: t('tour.progress'),
    nextBtnText: t('tour.next'),
    prevBtnText: t('tour.previous'),
    doneBtnText: t('tour.done'),
    popoverClass: 'portal-tour',
    // The highlighted part is shown, not used: a click on it would leave the page the tour is about.
    disableActiveInteraction: true,
    onNextClick: () => {
      const index = tour.getActiveIndex() ?? 0;
      if (tour.isLastStep()) end('finished');
      else void show(index + 1);
    },
    onPrevClick: () => {
      const index = tour.getActiveIndex() ?? 0;
      if (!tour.isFirstStep()) void show(index - 1);
    },
    // Esc, the close button and a click outside the step.
    onDestroyStarted: () => end('skipped'),
    onPopoverRender: (popover) => {
      popover.closeButton.setAttribute('aria-label', t('tour.close'));
      // After this the library marks the highlighted element and focuses the step's first button,
      // the close button; Enter is meant to go on.
      queueMicrotask(() => {
        clearPopupAttributes();
        popover.nextButton.focus();
      });
    },
  });

  void show(0);
  return { stop: () => end() };
}
