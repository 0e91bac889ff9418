import { useSyncExternalStore } from 'react';

export type ResourceSnapshot<T> =
  { status: 'loading' } | { status: 'error'; error: unknown } | { status: 'loaded'; data: T };

export interface Resource<T> {
  /** Fetches again; what was loaded stays on screen until the answer comes. Resolves once it is shown. */
  reload(): Promise<void>;
  /** Replaces what was loaded (an answer that already holds it), overriding a fetch still under way. */
  set(data: T): void;
  subscribe(listener: () => void): () => void;
  snapshot(): ResourceSnapshot<T>;
}

/**
 * One piece of server data the whole app shares, fetched when first used (the account, the public
 * configuration). The pages read it before TanStack Query loads with the signed-in pages
 * (decision 012); only the newest fetch may set it, so an older answer never overwrites a newer one.
 */
export function createResource<T>(fetcher: () => Promise<T>): Resource<T> {
  let current: ResourceSnapshot<T> = { status: 'loading' };
  let generation = 0;
  let started = false;
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
  };
}

/** The resource in the shape of a TanStack query result, for components. */
export function useResource<T>(resource: Resource<T>) {
  const snapshot = useSyncExternalStore(resource.subscribe, resource.snapshot);
  return {
    data: snapshot.status === 'loaded' ? snapshot.data : undefined,
    error: snapshot.status === 'error' ? snapshot.error : null,
    isPending: snapshot.status === 'loading',
    isError: snapshot.status === 'error',
  };
}
