import { useSyncExternalStore } from 'react';

const neverChanges = () => () => undefined;

/**
 * False in a server render and in the browser's render that takes a server-rendered page over
 * (decision 026), true from then on and in every render the browser makes on its own. Parts that
 * must wait for the page's script, or write what the server cannot know, read it.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    neverChanges,
    () => true,
    () => false,
  );
}
