import type {
  ApiKey,
  CreateApiKeyRequest,
  CreatedApiKey,
  ListApiKeysResponse,
  RotateApiKeyRequest,
  RotateApiKeyResponse,
} from '@portal/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

const keysPath = (applicationId: string) =>
  `/api/v1/applications/${encodeURIComponent(applicationId)}/api-keys`;
const keyPath = (applicationId: string, keyId: string) =>
  `${keysPath(applicationId)}/${encodeURIComponent(keyId)}`;

export const apiKeysQueryKey = (applicationId: string) => ['api-keys', applicationId] as const;

/** GET /api/v1/applications/:id/api-keys: the app's keys as its region keeps them, newest first. */
export function useApiKeys(applicationId: string) {
  return useQuery({
    queryKey: apiKeysQueryKey(applicationId),
    queryFn: ({ signal }) => apiRequest<ListApiKeysResponse>(keysPath(applicationId), { signal }),
  });
}

/** A change to the app's keys; the list reloads after it, whether it went through or not. */
function useApiKeyMutation<Variables, Answer>(
  applicationId: string,
  send: (variables: Variables) => Promise<Answer>,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    // A refusal may come from a list that changed elsewhere (another member revoked a key).
    onSettled: () => client.invalidateQueries({ queryKey: apiKeysQueryKey(applicationId) }),
  });
}

export function useCreateApiKey(applicationId: string) {
  return useApiKeyMutation(applicationId, (body: CreateApiKeyRequest) =>
    apiRequest<CreatedApiKey>(keysPath(applicationId), { method: 'POST', body }),
  );
}

export function useRotateApiKey(applicationId: string) {
  return useApiKeyMutation(applicationId, ({ keyId, ...body }: RotateApiKeyRequest & { keyId: string }) =>
    apiRequest<RotateApiKeyResponse>(`${keyPath(applicationId, keyId)}/rotate`, { method: 'POST', body }),
  );
}

export function useRevokeApiKey(applicationId: string) {
  return useApiKeyMutation(applicationId, (keyId: string) =>
    apiRequest<ApiKey>(`${keyPath(applicationId, keyId)}/revoke`, { method: 'POST' }),
  );
}
