import { DEFAULT_REGION, REGION_KEYS, type RegionKey } from '@portal/contracts';

/**
 * A region's API base as the browser reaches it. The portal serves the regions on its own origin
 * under /regions/{key}; this is the one place to change if the public config ever names them.
 */
export function regionBaseUrl(key: RegionKey): string {
  return `/regions/${key.toLowerCase()}`;
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
