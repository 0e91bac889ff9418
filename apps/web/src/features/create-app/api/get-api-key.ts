import type { Application } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { getApiKey } from '../../../lib/regions/region-api';
import { regionalSessionQueryOptions } from '../../../lib/regions/regional-session';
import { LOADING_API_KEY, wizardApiKey } from '../wizard-api-key';

/** The API keys read from the regions, one per application; never stale once read. */
export const REGION_API_KEY_QUERY_KEY = ['region-api-key'] as const;

/**
 * GET /admin/v1/network/apikey on the app's region, read once the regional session is open: the
 * app's first key, or once that has stopped the prefix of a key that works.
 */
export function useApiKey(application: Application) {
  const session = useQuery(regionalSessionQueryOptions(application));
  const apiKey = useQuery({
    queryKey: [...REGION_API_KEY_QUERY_KEY, application.region, application.applicationId],
    queryFn: ({ signal }) => getApiKey(application.region, session.data!, signal),
    select: wizardApiKey,
    staleTime: Infinity,
    enabled: session.isSuccess,
  });
  return {
    key: apiKey.data ?? LOADING_API_KEY,
    isError: apiKey.isError || session.isError,
    sessionReady: session.isSuccess,
  };
}
