/** The page (path and query) that was reloaded because one of its scripts failed to load, and that script. */
export const CHUNK_RELOAD_KEY = 'portal.chunk-reload';

export interface ChunkReloadEnvironment {
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  /** The page being opened: during a client-side navigation, its destination. */
  targetPage: () => string;
  /** A full page load of `page`, which fetches the current build's HTML and scripts. */
  openFully: (page: string) => void;
}

/**
 * The browser's environment. A client-side navigation changes the address before the new page's
 * code is asked for, so the address is the page being opened.
 */
export function browserChunkReloads(): ChunkReloadEnvironment {
  return {
    get storage() {
      return sessionStorage;
    },
    targetPage: () => `${window.location.pathname}${window.location.search}`,
    openFully: (page) => window.location.assign(page),
  };
}

/**
 * A route's lazy import that survives a release. After a deploy the running page still names the
 * previous build's chunks, which are gone: the first failure on a page reloads it once, which
 * fetches the new build; a failure again on the same page is real and reaches the error page
 * ('Loading chunk {name} failed', spec §9). The mark names the page and the chunk: only that chunk
 * loading clears it, since other chunks of the same page (its layout) may load while it still fails.
 */
export function reloadOnceOnChunkFailure<T>(
  load: () => Promise<T>,
  name: string,
  environment: ChunkReloadEnvironment,
): () => Promise<T> {
  return async () => {
    const { storage, targetPage, openFully } = environment;
    const markOf = (page: string) => JSON.stringify({ page, chunk: name });
    const markedChunk = () => {
      try {
        return (JSON.parse(storage.getItem(CHUNK_RELOAD_KEY) ?? 'null') as { chunk?: unknown } | null)?.chunk;
      } catch {
        return undefined;
      }
    };
    try {
      const loaded = await load();
      if (markedChunk() === name) storage.removeItem(CHUNK_RELOAD_KEY);
      return loaded;
    } catch (error) {
      const page = targetPage();
      if (storage.getItem(CHUNK_RELOAD_KEY) !== markOf(page)) {
        storage.setItem(CHUNK_RELOAD_KEY, markOf(page));
        openFully(page);
        // The page is being replaced; nothing should render in the meantime.
        return new Promise<T>(() => undefined);
      }
      storage.removeItem(CHUNK_RELOAD_KEY);
      throw new Error(`Loading chunk ${name} failed. (error: ${(error as Error).message})`, { cause: error });
    }
  };
}
