import { describe, expect, it } from 'vitest';
import {
  ChangePasswordFormSchema,
  InvitationSignupFormSchema,
  InviteMembersFormSchema,
  isStrongEnough,
  MemberProfileFormSchema,
} from './member-forms';

const STRONG = 'Str0ng!Passw0rd';
const messagesOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

describe('MemberProfileFormSchema', () => {
  const valid = {
    displayName: 'Ada',
    roleId: 'portal.developer',
    access: 'all' as const,
    applicationIds: [],
  };

  it('requires a display name', () => {
    expect(messagesOf(MemberProfileFormSchema.safeParse({ ...valid, displayName: '  ' }))).toEqual([
      'validation.displayName.required',
    ]);
  });

  it('needs one application when selected applications is chosen for a role that may be limited', () => {
    expect(messagesOf(MemberProfileFormSchema.safeParse({ ...valid, access: 'selected' }))).toEqual([
      'validation.applicationScopes.required',
    ]);
    expect(
      MemberProfileFormSchema.safeParse({ ...valid, access: 'selected', applicationIds: ['app-1'] }).success,
    ).toBe(true);
    expect(
      MemberProfileFormSchema.safeParse({ ...valid, roleId: 'portal.admin', access: 'selected' }).success,
    ).toBe(true);
  });
});

describe('InviteMembersFormSchema', () => {
  it('requires valid addresses and a role', () => {
    const result = InviteMembersFormSchema.safeParse({
      emails: ['nope'],
      roleId: '',
      access: 'all',
      applicationIds: [],
    });
    expect(messagesOf(result)).toEqual(['validation.email.invalid', 'validation.role.required']);
  });
});

describe('password forms', () => {
  it('change password wants the confirmation to match', () => {
    const result = ChangePasswordFormSchema.safeParse({
      currentPassword: 'old',
      newPassword: STRONG,
      confirmPassword: 'other',
    });
    expect(messagesOf(result)).toEqual(['changePassword.mismatch']);
  });

  it('invitation sign-up says Password mismatch and wants a strong password', () => {
    expect(
      messagesOf(
        InvitationSignupFormSchema.safeParse({
          displayName: 'Ada',
          password: STRONG,
          confirmPassword: 'other',
        }),
      ),
    ).toEqual(['validation.password.mismatch']);
    expect(
      messagesOf(
        InvitationSignupFormSchema.safeParse({
          displayName: 'Ada',
          password: 'weak',
          confirmPassword: 'weak',
        }),
      ),
    ).toEqual(['password.strongRequired']);
  });

  it('a password is strong enough at medium or high, or by the policy alone before zxcvbn loads', () => {
    expect(isStrongEnough(STRONG, 3)).toBe(true);
    expect(isStrongEnough(STRONG, 1)).toBe(true);
    expect(isStrongEnough(STRONG, 0)).toBe(false);
    expect(isStrongEnough(STRONG, null)).toBe(true);
    expect(isStrongEnough('weak', null)).toBe(false);
  });
});
