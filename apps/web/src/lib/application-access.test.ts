import { describe, expect, it } from 'vitest';
import { accessFormValuesOf, applicationScopesFor } from './application-access';

describe('applicationScopesFor', () => {
  it('sends the selected applications only for roles that may be limited', () => {
    expect(applicationScopesFor('portal.developer', 'selected', ['app-1'])).toEqual(['app-1']);
    expect(applicationScopesFor('portal.developer', 'all', ['app-1'])).toBeNull();
    expect(applicationScopesFor('portal.admin', 'selected', ['app-1'])).toBeNull();
  });
});

describe('accessFormValuesOf', () => {
  it('reads no scopes as all applications, and a list as the selected ones', () => {
    expect(accessFormValuesOf('portal.developer', null)).toEqual({
      roleId: 'portal.developer',
      access: 'all',
      applicationIds: [],
    });
    expect(accessFormValuesOf('portal.analyst', [{ id: 'app-1', name: 'Chat' }])).toEqual({
      roleId: 'portal.analyst',
      access: 'selected',
      applicationIds: ['app-1'],
    });
  });
});
