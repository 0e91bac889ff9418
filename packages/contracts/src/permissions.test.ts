import { describe, expect, it } from 'vitest';
import { PERMISSIONS, ROLE_IDS, permissionsForRoles, uiPermissions } from './permissions.ts';

describe('role permissions', () => {
  it('gives the super-admin everything and the admin everything except billing, the security pages and usage alerts', () => {
    expect(permissionsForRoles(['portal.super-admin'])).toEqual([...PERMISSIONS]);
    expect(permissionsForRoles(['portal.admin'])).toEqual(
      PERMISSIONS.filter(
        (p) => !['VIEW_BILLING', 'MANAGE_SECURITY', 'MANAGE_SSO', 'MANAGE_USAGE_ALERTS'].includes(p),
      ),
    );
  });

  it('keeps the organisation security settings, single sign-on and usage alerts to the super-admin', () => {
    for (const permission of ['MANAGE_SECURITY', 'MANAGE_SSO', 'MANAGE_USAGE_ALERTS'] as const) {
      const holders = ROLE_IDS.filter((role) => permissionsForRoles([role]).includes(permission));
      expect(holders, permission).toEqual(['portal.super-admin']);
    }
  });

  it('shows the audit log to the super-admin and the admin only', () => {
    const holders = ROLE_IDS.filter((role) => permissionsForRoles([role]).includes('VIEW_AUDIT_LOG'));
    expect(holders).toEqual(['portal.super-admin', 'portal.admin']);
  });

  it('limits analysts to the dashboard and developers to applications', () => {
    expect(permissionsForRoles(['portal.analyst'])).toEqual(['VIEW_DASHBOARD']);
    expect(permissionsForRoles(['portal.developer'])).toEqual([
      'VIEW_APPLICATION',
      'EDIT_APPLICATION',
      'CREATE_APPLICATION',
    ]);
  });

  it('grants nothing for unknown roles on the server, while the UI reads an empty list as all', () => {
    expect(permissionsForRoles(['portal.owner'])).toEqual([]);
    expect(uiPermissions([])).toEqual(PERMISSIONS);
    expect(uiPermissions(['VIEW_DASHBOARD'])).toEqual(['VIEW_DASHBOARD']);
  });
});
