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
