/**
 * The regional platform's APIs as the portal and the browser use them (§7 "Regional API",
 * architecture "Regions"). Paths are relative to a region's API base (REGION_*_URL, or
 * {PUBLIC_URL}/regions/{sg|eu|us} when the emulator is mounted in the portal).
 */
export const REGION_PATHS = {
  // Server-to-server, bearer REGION_ADMIN_TOKEN.
  networks: '/admin/v1/networks',
  network: (networkId: string) => `/admin/v1/networks/${encodeURIComponent(networkId)}`,
  deactivate: (networkId: string) => `/admin/v1/networks/${encodeURIComponent(networkId)}/deactivate`,
  reactivate: (networkId: string) => `/admin/v1/networks/${encodeURIComponent(networkId)}/reactivate`,
  usage: '/admin/v1/usage',
  /** A network's API keys: GET lists them, POST creates one (decision 043). */
  apiKeys: (networkId: string) => `/admin/v1/networks/${encodeURIComponent(networkId)}/api-keys`,
  apiKeyExpire: (networkId: string, keyId: string) =>
    `/admin/v1/networks/${encodeURIComponent(networkId)}/api-keys/${encodeURIComponent(keyId)}/expire`,
  apiKeyRevoke: (networkId: string, keyId: string) =>
    `/admin/v1/networks/${encodeURIComponent(networkId)}/api-keys/${encodeURIComponent(keyId)}/revoke`,
  // Browser, credentials included.
  sso: (portal: string) => `/api/v2/sso/${encodeURIComponent(portal)}`,
  /** The setup wizard's key: the network's first key while it works. */
  apiKey: '/admin/v1/network/apikey',
  firstActivity: '/network/first-activity',
  ping: '/ping',
  /** Starts an organisation's single sign-on from a region (organization: its SSO domain). */
  samlStart: '/api/sso/saml/start',
  // SDK, authenticated by the API key.
  sdkSession: '/sdk/v1/sessions',
} as const;

/** The portal identifier in the regional SSO path. */
export const PORTAL_SSO_IDENTIFIER = 'portal';

export const NETWORK_STATUSES = ['provisioning', 'active', 'inactive'] as const;
export type NetworkStatus = (typeof NETWORK_STATUSES)[number];

/**
 * Region → portal, server to server with the same REGION_ADMIN_TOKEN: is the portal session that
 * opened a regional session still live, and may its member still see the application? Asked on
 * every request a regional session makes, so a sign-out or a removed member ends regional access
 * at once.
 */
export const REGIONAL_SESSION_CHECK_PATH = '/api/internal/v1/regional-sessions/check';
