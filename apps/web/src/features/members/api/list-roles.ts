import { type ListRolesResponse, PENDING_INVITATIONS_MAX, ROLE_NAMES, type RoleId } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiRequest } from '../../../lib/api-client';

/** The role list, the same for every organisation: read once and never invalidated. */
export const ROLES_QUERY_KEY = ['roles'] as const;

/** GET /api/v1/roles (§7 asks for up to 50). */
function useRoles() {
  return useQuery({
    queryKey: ROLES_QUERY_KEY,
    queryFn: ({ signal }) =>
      apiRequest<ListRolesResponse>(`/api/v1/roles?limit=${PENDING_INVITATIONS_MAX}`, {
        signal,
      }),
    staleTime: Infinity,
  });
}

/** A role's name as the API words it, or the contracts' name until the list has arrived. */
export function useRoleName(): (roleId: RoleId) => string {
  const { data } = useRoles();
  return useCallback(
    (roleId: RoleId) => data?.results.find((role) => role.id === roleId)?.name ?? ROLE_NAMES[roleId],
    [data],
  );
}
