import { DEFAULT_REGION, REGION_KEYS, type PublicConfig, type RegionKey } from '@portal/contracts';
import { loadedPublicConfig } from '../public-config';

/**
 * A region's API base as the browser reaches it, as the public configuration names it: the
 * region's own address (REGION_*_URL), or /regions/{key} on the portal's origin when the portal
 * hosts it. Without a trailing slash, so paths are appended as they are.
 */
export function regionBaseUrlIn(config: Pick<PublicConfig, 'regionBaseUrls'>, key: RegionKey): string {
  return config.regionBaseUrls[key].replace(/\/+$/, '');
}

/** Every call the browser makes to a region starts from here. */
export async function regionBaseUrl(key: RegionKey): Promise<string> {
  return regionBaseUrlIn(await loadedPublicConfig(), key);
}

/** Resolves when the region answers its ping, rejects otherwise. */
export type RegionPinger = (key: RegionKey, signal: AbortSignal) => Promise<unknown>;

/** How long the wizard waits for any region before settling on the default. */
const CLOSEST_REGION_TIMEOUT_MS = 3_000;

/**
 * The region whose ping answers first, taken as the closest to the user. When none answers
 * (all fail, or none within the timeout) the default region is chosen. The slower pings are
 * aborted once the answer is known.
 */
export async function closestRegion(
  ping: RegionPinger,
  timeoutMs = CLOSEST_REGION_TIMEOUT_MS,
): Promise<RegionKey> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<RegionKey>((resolve) => {
    timer = setTimeout(() => resolve(DEFAULT_REGION), timeoutMs);
  });
  const first = Promise.any(REGION_KEYS.map((key) => ping(key, controller.signal).then(() => key))).catch(
    () => DEFAULT_REGION,
  );
  try {
    return await Promise.race([first, timeout]);
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}
