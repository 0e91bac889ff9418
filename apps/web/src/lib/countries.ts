import { type CountriesResponse } from '@portal/contracts';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from './api-client';
import { SESSION_INDEPENDENT } from './query-client';

export const countriesQueryOptions = queryOptions({
  queryKey: ['countries'],
  queryFn: ({ signal }) => apiRequest<CountriesResponse>('/api/v1/utils/countries', { signal }),
  staleTime: Infinity,
  meta: SESSION_INDEPENDENT,
});
