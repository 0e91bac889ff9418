import { messages, type Member, type Permission } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-error';
import { registerToastContainer } from '../../lib/toasts';
import {
  emailTagsFrom,
  formatLastLogin,
  inviteButtonState,
  invitedTab,
  inviteMaxEntries,
  isSsoUser,
  memberChangeErrorText,
  memberRowActions,
  sortMembersByName,
  viewerOf,
  type Viewer,
} from './member-rules';

const UUID = '3f2b8c1e-5d4a-4f6b-9a7c-2e1d0b9c8a7f';

function member(id: string, roleId: Member['roles'][number]['id'], displayName = 'Someone'): Member {
  return {
    id,
    displayName,
    email: `${id}@acme.io`,
    roles: [{ id: roleId }],
    applicationScopes: null,
    lastLogin: 0,
    hasPassword: true,
  };
}

const admin = (permissions: Permission[]): Viewer => ({
  memberId: 'me',
  roleIds: ['portal.admin'],
  permissions,
});
const ALL_MEMBER_PERMISSIONS: Permission[] = ['VIEW_MEMBER', 'EDIT_MEMBER', 'INVITE_MEMBER', 'DELETE_MEMBER'];

describe('memberRowActions', () => {
  it('offers only the edit-profile action on the viewer’s own row', () => {
    expect(memberRowActions(member('me', 'portal.admin'), admin(ALL_MEMBER_PERMISSIONS))).toEqual([
      'editProfile',
    ]);
  });

  it('offers nothing on super-admin rows', () => {
    expect(memberRowActions(member('boss', 'portal.super-admin'), admin(ALL_MEMBER_PERMISSIONS))).toEqual([]);
  });

  it('offers nothing on rows sharing a role with the viewer', () => {
    expect(memberRowActions(member('peer', 'portal.admin'), admin(ALL_MEMBER_PERMISSIONS))).toEqual([]);
  });

  it('offers edit, and delete only with DELETE_MEMBER, on other rows', () => {
    const developer = member('dev', 'portal.developer');
    expect(memberRowActions(developer, admin(ALL_MEMBER_PERMISSIONS))).toEqual(['edit', 'delete']);
    expect(memberRowActions(developer, admin(['VIEW_MEMBER', 'EDIT_MEMBER']))).toEqual(['edit']);
  });

  it('offers no edit to a viewer who may only look at members', () => {
    const moderator: Viewer = { memberId: 'me', roleIds: ['portal.moderator'], permissions: ['VIEW_MEMBER'] };
    expect(memberRowActions(member('dev', 'portal.developer'), moderator)).toEqual([]);
  });
});

describe('viewerOf', () => {
  it('reads an account that lists no permissions as holding all of them', () => {
    const viewer = viewerOf({ memberId: 'me', roles: [{ id: 'portal.admin' }], permissions: [] });
    expect(viewer.roleIds).toEqual(['portal.admin']);
    expect(viewer.permissions).toContain('DELETE_MEMBER');
  });
});

describe('formatLastLogin', () => {
  it('is null (shown as Never) for 0', () => {
    expect(formatLastLogin(0)).toBeNull();
  });

  it('gives the local date as dd MMM yyyy and the time as HH:mm', () => {
    const at = new Date(2026, 0, 5, 9, 7).getTime();
    expect(formatLastLogin(at)).toEqual({ date: '05 Jan 2026', time: '09:07' });
  });
});

describe('isSsoUser', () => {
  it('is false for version-4 UUIDs, in either case', () => {
    expect(isSsoUser(UUID)).toBe(false);
    expect(isSsoUser(UUID.toUpperCase())).toBe(false);
  });

  it('is true for ids of identity providers and other UUID versions', () => {
    expect(isSsoUser('okta|00u1abcd')).toBe(true);
    expect(isSsoUser('3f2b8c1e-5d4a-1f6b-9a7c-2e1d0b9c8a7f')).toBe(true);
    expect(isSsoUser('3f2b8c1e-5d4a-4f6b-1a7c-2e1d0b9c8a7f')).toBe(true);
  });
});

describe('sortMembersByName', () => {
  const members = [
    member('b', 'portal.developer', 'bob'),
    member('a', 'portal.developer', 'Alice'),
    member('c', 'portal.developer', 'Carol'),
  ];

  it('sorts by display name ignoring case, in either direction', () => {
    expect(sortMembersByName(members, 'asc').map((m) => m.displayName)).toEqual(['Alice', 'bob', 'Carol']);
    expect(sortMembersByName(members, 'desc').map((m) => m.displayName)).toEqual(['Carol', 'bob', 'Alice']);
  });
});

describe('inviteMaxEntries', () => {
  it('is 20 while 30 or fewer invitations are pending', () => {
    expect(inviteMaxEntries(0)).toBe(20);
    expect(inviteMaxEntries(30)).toBe(20);
  });

  it('is the pending quota left above that, and never negative', () => {
    expect(inviteMaxEntries(45)).toBe(5);
    expect(inviteMaxEntries(50)).toBe(0);
    expect(inviteMaxEntries(55)).toBe(0);
  });
});

describe('email tags', () => {
  it('splits pasted lists on newlines, commas and semicolons, trimmed and deduplicated', () => {
    expect(emailTagsFrom(['a@acme.io', ' b@acme.io;c@acme.io\nA@acme.io , d@acme.io'], 20)).toEqual([
      'a@acme.io',
      'b@acme.io',
      'c@acme.io',
      'd@acme.io',
    ]);
  });

  it('keeps no more than the maximum', () => {
    expect(emailTagsFrom(['a@acme.io,b@acme.io,c@acme.io'], 2)).toEqual(['a@acme.io', 'b@acme.io']);
  });
});

describe('invitedTab', () => {
  it('is hidden under enforced SSO while nothing is pending', () => {
    expect(invitedTab(true, 0)).toEqual({ visible: false, dot: false });
  });

  it('shows with a dot whenever invitations are pending', () => {
    expect(invitedTab(true, 2)).toEqual({ visible: true, dot: true });
    expect(invitedTab(false, 1)).toEqual({ visible: true, dot: true });
  });

  it('shows without a dot when SSO is not enforced and nothing is pending', () => {
    expect(invitedTab(false, 0)).toEqual({ visible: true, dot: false });
  });
});

describe('inviteButtonState', () => {
  const account = { enforcedSSO: false, accountStatus: 'active' as const, memberLimit: 5 };

  it('is enabled for an active account below its member limit', () => {
    expect(inviteButtonState(account, ALL_MEMBER_PERMISSIONS, 4)).toBe('enabled');
  });

  it('is disabled at the member limit or on an inactive account', () => {
    expect(inviteButtonState(account, ALL_MEMBER_PERMISSIONS, 5)).toBe('disabled');
    expect(inviteButtonState({ ...account, accountStatus: 'inactive' }, ALL_MEMBER_PERMISSIONS, 1)).toBe(
      'disabled',
    );
  });

  it('is hidden under enforced SSO or without INVITE_MEMBER', () => {
    expect(inviteButtonState({ ...account, enforcedSSO: true }, ALL_MEMBER_PERMISSIONS, 1)).toBe('hidden');
    expect(inviteButtonState(account, ['VIEW_MEMBER'], 1)).toBe('hidden');
  });
});

describe('memberChangeErrorText', () => {
  const refusal = (code: string, message: string) =>
    new ApiError({ status: 409, code, message, path: '/api/v1/invitations' });

  it('shows the server’s wording of the four invitation refusals', () => {
    const message = 'a@acme.io is already in the organization.';
    expect(memberChangeErrorText(refusal('MEMBER_EMAIL_ALREADY_EXISTS_IN_THIS_ORG', message))).toBe(message);
  });

  it('shows the personal-email wording when the server refuses a free-mail invitee', () => {
    const message = messages['loginWithEmail.error.personalEmail'];
    expect(memberChangeErrorText(refusal('CORPORATE_EMAIL_REQUIRED', message))).toBe(message);
  });

  it('shows Something went wrong for any other refusal', () => {
    expect(memberChangeErrorText(refusal('ROLE_NOT_ASSIGNABLE', 'You cannot give this role.'))).toBe(
      'common.somethingWrong',
    );
  });

  it('shows nothing for network failures, which are toasted already', () => {
    const unregister = registerToastContainer();
    expect(
      memberChangeErrorText(
        new ApiError({ status: 0, code: 'NETWORK_ERROR', message: 'common.networkError', path: '/x' }),
      ),
    ).toBeNull();
    unregister();
  });
});
