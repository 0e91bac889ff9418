import { useContext, useMemo, useSyncExternalStore } from 'react';
import { browserFirstRender, FirstRenderContext, type FirstRenderData } from './first-render';

export type ResourceSnapshot<T> =
  { status: 'loading' } | { status: 'error'; error: unknown } | { status: 'loaded'; data: T };

export interface Resource<T> {
  /** Fetches again; what was loaded stays on screen until the answer comes. Resolves once it is shown. */
  reload(): Promise<void>;
  /** Replaces what was loaded (an answer that already holds it), overriding a fetch still under way. */
  set(data: T): void;
  subscribe(listener: () => void): () => void;
  snapshot(): ResourceSnapshot<T>;
  /** The resource's value in what a server render was given. */
  fromFirstRender(data: FirstRenderData): T;
}

/**
 * One piece of server data the whole app shares, fetched when first used (the account, the public
 * configuration). The pages read it before TanStack Query loads with the signed-in pages
 * (decision 012); only the newest fetch may set it, so an older answer never overwrites a newer one.
 */
export function createResource<T>(
  fetcher: () => Promise<T>,
  fromFirstRender: (data: FirstRenderData) => T,
): Resource<T> {
  // A server-rendered page brings the value its HTML was rendered with: the first render in the
  // browser, which takes that HTML over, must start from it, and need not fetch it again.
  const served = browserFirstRender();
  let current: ResourceSnapshot<T> = served
    ? { status: 'loaded', data: fromFirstRender(served) }
    : { status: 'loading' };
  let generation = 0;
  let started = served !== null;
  const listeners = new Set<() => void>();
  const publish = (next: ResourceSnapshot<T>) => {
    current = next;
    listeners.forEach((listener) => listener());
  };

  const reload = () => {
    started = true;
    const fetched = ++generation;
    return fetcher().then(
      (data) => {
        if (fetched === generation) publish({ status: 'loaded', data });
      },
      (error: unknown) => {
        if (fetched === generation) publish({ status: 'error', error });
      },
    );
  };

  return {
    reload,
    set(data) {
      started = true;
      generation += 1;
      publish({ status: 'loaded', data });
    },
    subscribe(listener) {
      listeners.add(listener);
      if (!started) void reload();
      return () => listeners.delete(listener);
    },
    snapshot: () => current,
    fromFirstRender,
  };
}

/**
 * The resource in the shape of a TanStack query result, for components. A server render reads it
 * from the data it was given; in the browser a server-rendered page's resources start from the same
 * data, so both renders see the same value.
 */
export function useResource<T>(resource: Resource<T>) {
  const firstRender = useContext(FirstRenderContext);
  const serverSnapshot = useMemo<() => ResourceSnapshot<T>>(() => {
    if (!firstRender) return resource.snapshot;
    const seeded: ResourceSnapshot<T> = { status: 'loaded', data: resource.fromFirstRender(firstRender) };
    return () => seeded;
  }, [firstRender, resource]);
  const snapshot = useSyncExternalStore(resource.subscribe, resource.snapshot, serverSnapshot);
  return {
    data: snapshot.status === 'loaded' ? snapshot.data : undefined,
    error: snapshot.status === 'error' ? snapshot.error : null,
    isPending: snapshot.status === 'loading',
    isError: snapshot.status === 'error',
  };
}
