import type { PublicConfig } from '@portal/contracts';
import { apiRequest } from './api-client';
import { createResource, useResource } from './resource';

/** Which sign-in options exist, product wording and links: the same for everyone, loaded once. */
const publicConfig = createResource(
  () => apiRequest<PublicConfig>('/api/v1/config'),
  (data) => data.config,
);

export function usePublicConfig() {
  return useResource(publicConfig);
}

/** The public configuration outside a component: the one already loaded, or loaded now. */
export async function loadedPublicConfig(): Promise<PublicConfig> {
  const shown = publicConfig.snapshot();
  if (shown.status === 'loaded') return shown.data;
  const config = await apiRequest<PublicConfig>('/api/v1/config');
  publicConfig.set(config);
  return config;
}
