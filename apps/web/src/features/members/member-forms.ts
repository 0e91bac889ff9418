import {
  ChangePasswordRequestSchema,
  confirmsPassword,
  displayNameField,
  emailField,
  INVITATION_EMAILS_PER_REQUEST,
  isScopableRole,
  meetsPasswordPolicy,
  ROLE_IDS,
  type MessageKey,
} from '@portal/contracts';
import { z } from 'zod';
import { passwordStrengthLevel, type ZxcvbnScore } from '../../lib/password-strength';
import type { ApplicationAccess } from './member-rules';

const key = (k: MessageKey) => k;

/** Role and application access as the invite and edit forms hold them. */
const accessFields = {
  // The form starts with no role (''); a submitted form holds a role id.
  roleId: z.string().min(1, key('validation.role.required')).pipe(z.enum(ROLE_IDS)),
  access: z.enum(['all', 'selected'] satisfies ApplicationAccess[]),
  applicationIds: z.array(z.string()),
};

/** The fields the invite and edit forms share. */
export interface AccessFormFields {
  roleId: string;
  access: ApplicationAccess;
  applicationIds: string[];
}

/** 'Selected applications' needs at least one application, for the roles that may be limited. */
function requireSelectedApplications(value: AccessFormFields, ctx: z.RefinementCtx) {
  if (isScopableRole(value.roleId) && value.access === 'selected' && value.applicationIds.length === 0) {
    ctx.addIssue({
      code: 'custom',
      path: ['applicationIds'],
      message: key('validation.applicationScopes.required'),
    });
  }
}

export const MemberProfileFormSchema = z
  .object({ displayName: displayNameField, ...accessFields })
  .superRefine(requireSelectedApplications);
export type MemberProfileForm = z.input<typeof MemberProfileFormSchema>;

export const InviteMembersFormSchema = z
  .object({
    emails: z
      .array(emailField)
      .min(1, key('validation.email.required'))
      .max(INVITATION_EMAILS_PER_REQUEST, key('validation.invitationEmails.tooMany')),
    ...accessFields,
  })
  .superRefine(requireSelectedApplications);
export type InviteMembersForm = z.input<typeof InviteMembersFormSchema>;

/**
 * A new password of change password and invitation sign-up (§5): it must rate medium or high, which
 * needs the sign-up policy (checked here) and a zxcvbn score above very weak (checked on submit).
 */
const newPasswordField = z
  .string()
  .min(1, key('validation.password.required'))
  .refine(meetsPasswordPolicy, key('password.strongRequired'));
const { currentPassword: currentPasswordField, confirmPassword: confirmPasswordField } =
  ChangePasswordRequestSchema.shape;

/** True when the password rates medium or high; while zxcvbn is still loading, the policy alone decides. */
export function isStrongEnough(password: string, score: ZxcvbnScore | null): boolean {
  return score === null ? meetsPasswordPolicy(password) : passwordStrengthLevel(password, score) !== 'low';
}

export const ChangePasswordFormSchema = z
  .object({
    currentPassword: currentPasswordField,
    newPassword: newPasswordField,
    confirmPassword: confirmPasswordField,
  })
  .check(confirmsPassword('newPassword', 'changePassword.mismatch'));
export type ChangePasswordForm = z.infer<typeof ChangePasswordFormSchema>;

export const InvitationSignupFormSchema = z
  .object({
    displayName: displayNameField,
    password: newPasswordField,
    confirmPassword: confirmPasswordField,
  })
  .check(confirmsPassword('password', 'validation.password.mismatch'));
export type InvitationSignupForm = z.infer<typeof InvitationSignupFormSchema>;
