import { startTransition, useEffect, useState, useSyncExternalStore } from 'react';

/**
 * True while a server-rendered page is being taken over (decision 026): from the start of its
 * hydration until the page itself is the browser's.
 */
let takingOver = false;

/** Called as the browser starts taking a server-rendered page over. */
export function startTakeOver() {
  takingOver = true;
}

/**
 * Called once the page is the browser's, from an effect of the commit that took it over; later
 * renders are the browser's own. It takes effect after that commit's other effects: a parent's
 * effects run after its children's, and a component above the caller (the frame around the page)
 * whose store changed before its own effects ran would be rendered again at once, blocking input.
 */
export function endTakeOver() {
  queueMicrotask(() => {
    takingOver = false;
  });
}

const neverChanges = () => () => undefined;
const alwaysTrue = () => true;
const rendersAlone = () => !takingOver;
const inServerRender = () => false;

/**
 * False in a server render and in the browser's render that takes a server-rendered page over,
 * true from the moment that render is committed and in every render the browser makes on its own.
 * For the controls that must wait for the page's script: they change in the same task as the
 * take-over, so they work as soon as the page says it is taken over.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(neverChanges, alwaysTrue, inServerRender);
}

/**
 * A value only the browser knows (its width, its clock, its time zone): undefined in a server render
 * and in the render that takes it over, which must write what the server wrote; the browser's own
 * value in any other render. `subscribe` says when it changes.
 *
 * After a take-over the value arrives in a transition (decision 045): the parts that show it render
 * again in slices, while the page already answers input. useHydrated would re-render them in one
 * task at the end of the take-over, which is what an external store's change does.
 */
export function useBrowserValue<T extends boolean | number | string>(
  read: () => T,
  subscribe: (onChange: () => void) => () => void = neverChanges,
): T | undefined {
  // Server and browser give the same answer during a take-over, so React has nothing to re-render.
  const rendersOnItsOwn = useSyncExternalStore(neverChanges, rendersAlone, inServerRender);
  const [value, setValue] = useState<T | undefined>(() => (rendersOnItsOwn ? read() : undefined));
  useEffect(() => {
    const update = () => setValue(read());
    startTransition(update);
    return subscribe(update);
  }, [read, subscribe]);
  return value;
}

/**
 * False in a server render and in the render that takes it over, true afterwards (set in a
 * transition, as useBrowserValue's values) and in every render the browser makes on its own. For
 * what shows something the server cannot know, such as the browser's clock or time zone.
 */
export function useBrowserRender(): boolean {
  return useBrowserValue(alwaysTrue) ?? false;
}
