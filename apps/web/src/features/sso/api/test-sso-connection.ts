import type { TestSsoConnectionRequest, TestSsoConnectionResponse } from '@portal/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/**
 * POST /api/v1/sso/connection/test: what the identity provider answered for these values; a 422
 * SSO_CONNECTION_FAILED says why not. Nothing is saved.
 */
export function useTestSsoConnection() {
  return useMutation({
    mutationFn: (body: TestSsoConnectionRequest) =>
      apiRequest<TestSsoConnectionResponse>('/api/v1/sso/connection/test', { method: 'POST', body }),
  });
}
