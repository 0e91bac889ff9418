import { type CountriesResponse } from '@portal/contracts';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client';
import { SESSION_INDEPENDENT } from '../../lib/query-client';

/** GET /api/v1/utils/countries: the billing country choices, the same for every visitor. */
export const countriesQueryOptions = queryOptions({
  queryKey: ['countries'],
  queryFn: ({ signal }) => apiRequest<CountriesResponse>('/api/v1/utils/countries', { signal }),
  staleTime: Infinity,
  meta: SESSION_INDEPENDENT,
});
