import {
  ChangePasswordRequestSchema,
  confirmsPassword,
  displayNameField,
  emailField,
  INVITATION_EMAILS_PER_REQUEST,
  meetsPasswordPolicy,
  type MessageKey,
} from '@portal/contracts';
import { z } from 'zod';
import { accessFormFields, requireSelectedApplications } from '../../lib/application-access';
import { passwordStrengthLevel, type ZxcvbnScore } from '../../lib/password-strength';

const key = (k: MessageKey) => k;

export const MemberProfileFormSchema = z
  .object({ displayName: displayNameField, ...accessFormFields })
  .superRefine(requireSelectedApplications);
export type MemberProfileForm = z.input<typeof MemberProfileFormSchema>;

export const InviteMembersFormSchema = z
  .object({
    emails: z
      .array(emailField)
      .min(1, key('validation.email.required'))
      .max(INVITATION_EMAILS_PER_REQUEST, key('validation.invitationEmails.tooMany')),
    ...accessFormFields,
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
