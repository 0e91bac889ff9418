import { startTransition, type ReactNode } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { startTakeOver } from './hydration';

/**
 * Takes a page the server rendered (decision 026) over where it stands. The take-over is a
 * transition (decision 045), so React hydrates in slices of a few milliseconds and the browser
 * answers input between them; a plain hydration is one task as long as the whole page's render. A
 * click on the page before it is done makes React finish at once and then handle the click. The
 * page calls endTakeOver once it is the browser's.
 */
export function takeOverRenderedPage(container: Element, page: ReactNode): Root {
  startTakeOver();
  let root!: Root;
  startTransition(() => {
    root = hydrateRoot(container, page);
  });
  return root;
}
