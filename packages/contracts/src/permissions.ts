/**
 * One permission vocabulary (§6, architecture role table) used by the server guards and the UI.
 * Beyond the spec's list: MANAGE_SECURITY (the organisation's security settings: whether members
 * must use a second factor) and MANAGE_SSO (its single sign-on: the identity provider, the domains,
 * new members' defaults, enforcement), the super-admin's alone (decision 037); VIEW_AUDIT_LOG (the
 * organisation's audit log), the super-admin's and the admin's (decision 042); MANAGE_USAGE_ALERTS
 * (the usage alerts' thresholds and recipients), the super-admin's alone (decision 044).
 */
export const PERMISSIONS = [
  'VIEW_APPLICATION',
  'EDIT_APPLICATION',
  'CREATE_APPLICATION',
  'VIEW_DASHBOARD',
  'VIEW_BILLING',
  'VIEW_PLAN_DETAIL',
  'VIEW_MEMBER',
  'EDIT_MEMBER',
  'INVITE_MEMBER',
  'DELETE_MEMBER',
  'MANAGE_SECURITY',
  'MANAGE_SSO',
  'VIEW_AUDIT_LOG',
  'MANAGE_USAGE_ALERTS',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const ROLE_IDS = [
  'portal.super-admin',
  'portal.admin',
  'portal.moderator',
  'portal.analyst',
  'portal.developer',
] as const;
export type RoleId = (typeof ROLE_IDS)[number];

export const SUPER_ADMIN_ROLE: RoleId = 'portal.super-admin';
export const ADMIN_ROLE: RoleId = 'portal.admin';

export const ROLE_NAMES: Record<RoleId, string> = {
  'portal.super-admin': 'Super Admin',
  'portal.admin': 'Admin',
  'portal.moderator': 'Moderator',
  'portal.analyst': 'Analyst',
  'portal.developer': 'Developer',
};

export const ROLE_PERMISSIONS: Record<RoleId, readonly Permission[]> = {
  'portal.super-admin': PERMISSIONS,
  'portal.admin': [
    'VIEW_APPLICATION',
    'EDIT_APPLICATION',
    'CREATE_APPLICATION',
    'VIEW_DASHBOARD',
    'VIEW_PLAN_DETAIL',
    'VIEW_MEMBER',
    'EDIT_MEMBER',
    'INVITE_MEMBER',
    'DELETE_MEMBER',
    'VIEW_AUDIT_LOG',
  ],
  'portal.moderator': ['VIEW_APPLICATION', 'EDIT_APPLICATION', 'VIEW_DASHBOARD', 'VIEW_MEMBER'],
  'portal.analyst': ['VIEW_DASHBOARD'],
  'portal.developer': ['VIEW_APPLICATION', 'EDIT_APPLICATION', 'CREATE_APPLICATION'],
};

/** Roles whose access may be limited to selected applications. */
export const SCOPABLE_ROLES: readonly RoleId[] = ['portal.moderator', 'portal.analyst', 'portal.developer'];

export function isRoleId(value: string): value is RoleId {
  return (ROLE_IDS as readonly string[]).includes(value);
}

/** The union of the permissions of the given roles, in the vocabulary's order. */
export function permissionsForRoles(roleIds: readonly string[]): Permission[] {
  const granted = new Set<Permission>();
  for (const roleId of roleIds) {
    if (isRoleId(roleId)) ROLE_PERMISSIONS[roleId].forEach((p) => granted.add(p));
  }
  return PERMISSIONS.filter((p) => granted.has(p));
}

/**
 * The UI's reading of an account's permissions: an account that lists none is treated as
 * holding all of them (§6). The server never applies this rule.
 */
export function uiPermissions(listed: readonly Permission[] | undefined): readonly Permission[] {
  return listed && listed.length > 0 ? listed : PERMISSIONS;
}

/** Roles an invitation or a member edit may grant: never the super-admin role. */
export const GRANTABLE_ROLES: readonly RoleId[] = ROLE_IDS.filter((role) => role !== SUPER_ADMIN_ROLE);

/** The roles a caller holding `callerRoles` may give others: grantable ones they do not hold themselves. */
export function assignableRoles(callerRoles: readonly string[]): RoleId[] {
  return GRANTABLE_ROLES.filter((role) => !callerRoles.includes(role));
}

export function isScopableRole(roleId: string): boolean {
  return (SCOPABLE_ROLES as readonly string[]).includes(roleId);
}
