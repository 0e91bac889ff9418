import { REGION_KEYS, REGION_PATHS, SdkSessionResponseSchema, type RegionKey } from '@portal/contracts';

/** A region's API base: REGION_{KEY}_URL when set, otherwise the emulator mounted in the portal. */
export function regionBaseUrl(
  region: RegionKey,
  portalBaseUrl: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const override = env[`REGION_${region}_URL`];
  return (override || `${portalBaseUrl.replace(/\/+$/, '')}/regions/${region.toLowerCase()}`).replace(
    /\/+$/,
    '',
  );
}

export function parseRegion(value: string): RegionKey {
  const key = value.toUpperCase();
  const region = REGION_KEYS.find((k) => k === key);
  if (!region) throw new Error(`Unknown region '${value}' (expected one of ${REGION_KEYS.join(', ')})`);
  return region;
}

/** Opens an SDK session the way a client app does: API key in x-api-key, the app's user id in the body. */
export async function createSdkSession(baseUrl: string, apiKey: string, userId: string) {
  const response = await fetch(`${baseUrl}${REGION_PATHS.sdkSession}`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ userId }),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  if (!response.ok) {
    let refusal = text || response.statusText;
    try {
      const body = JSON.parse(text) as { code?: string; message?: string };
      // The code tells a stopped key (API_KEY_EXPIRED, API_KEY_REVOKED) from a wrong one.
      if (body.message) refusal = body.code ? `${body.message} (${body.code})` : body.message;
    } catch {
      // Not JSON (a proxy or a wrong URL): the raw text says more than nothing.
    }
    throw new Error(`${response.status}: ${refusal}`);
  }
  return SdkSessionResponseSchema.parse(JSON.parse(text));
}
