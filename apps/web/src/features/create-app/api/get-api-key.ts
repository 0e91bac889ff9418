import type { Application } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { getApiKey } from '../../../lib/regions/region-api';
import { regionalSessionQueryOptions } from '../../../lib/regions/regional-session';

/** The API keys read from the regions, one per application; never stale once read. */
export const REGION_API_KEY_QUERY_KEY = ['region-api-key'] as const;

/** GET /admin/v1/network/apikey on the app's region: its API key, read once the regional session is open. */
export function useApiKey(application: Application) {
  const session = useQuery(regionalSessionQueryOptions(application));
  const apiKey = useQuery({
    queryKey: [...REGION_API_KEY_QUERY_KEY, application.region, application.applicationId],
    queryFn: ({ signal }) => getApiKey(application.region, session.data!, signal),
    select: (data) => data.apiKey,
    staleTime: Infinity,
    enabled: session.isSuccess,
  });
  return { ...apiKey, isError: apiKey.isError || session.isError, sessionReady: session.isSuccess };
}
