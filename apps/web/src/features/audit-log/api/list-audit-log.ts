import type { ListAuditLogResponse } from '@portal/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { apiQueryOf, listPathOf, type AuditLogFilters } from '../audit-log-filters';

/**
 * GET /api/v1/audit-log, newest first, a page at a time: each page starts at the previous one's
 * `nextCursor`, and the pages loaded stay shown. Other filters are another list, from its first page.
 */
export function useAuditLog(filters: AuditLogFilters) {
  return useInfiniteQuery({
    queryKey: ['audit-log', apiQueryOf(filters).toString()],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      apiRequest<ListAuditLogResponse>(listPathOf(filters, pageParam), { signal }),
    getNextPageParam: (lastPage) => lastPage.nextCursor,
  });
}
