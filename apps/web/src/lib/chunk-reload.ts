/** The page (path and query) that was reloaded because one of its scripts failed to load. */
export const CHUNK_RELOAD_KEY = 'portal.chunk-reload';

export interface ChunkReloadEnvironment {
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  /** The page being opened: during a client-side navigation, its destination, not the page shown. */
  targetPage: () => string;
  /** A full page load of `page`, which fetches the current build's HTML and scripts. */
  openFully: (page: string) => void;
}

/** The browser's environment, given how to read the destination of a navigation in progress. */
export function browserChunkReloads(pendingPage: () => string | undefined): ChunkReloadEnvironment {
  return {
    get storage() {
      return sessionStorage;
    },
    targetPage: () => pendingPage() ?? `${window.location.pathname}${window.location.search}`,
    openFully: (page) => window.location.assign(page),
  };
}

/**
 * A route's lazy import that survives a release. After a deploy the running page still names the
 * previous build's chunks, which are gone: the first failure on a page reloads it once, which
 * fetches the new build; a failure again on the same page is real and reaches the error page
 * ('Loading chunk {name} failed', spec §9). Any successful load clears the mark. The reload opens
 * the page being navigated to, since a client-side navigation has not changed the address yet.
 */
export function reloadOnceOnChunkFailure<T>(
  load: () => Promise<T>,
  name: string,
  environment: ChunkReloadEnvironment,
): () => Promise<T> {
  return async () => {
    const { storage, targetPage, openFully } = environment;
    try {
      const loaded = await load();
      storage.removeItem(CHUNK_RELOAD_KEY);
      return loaded;
    } catch (error) {
      const page = targetPage();
      if (storage.getItem(CHUNK_RELOAD_KEY) !== page) {
        storage.setItem(CHUNK_RELOAD_KEY, page);
        openFully(page);
        // The page is being replaced; nothing should render in the meantime.
        return new Promise<T>(() => undefined);
      }
      storage.removeItem(CHUNK_RELOAD_KEY);
      throw new Error(`Loading chunk ${name} failed. (error: ${(error as Error).message})`, { cause: error });
    }
  };
}
