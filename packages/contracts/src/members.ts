import { z } from 'zod';
import { confirmsPassword, emailField, strongPasswordField } from './auth.ts';
import { INVITATION_EMAILS_PER_REQUEST, INVITATION_STATUSES, PENDING_INVITATIONS_MAX } from './constants.ts';
import type { MessageKey } from './messages.ts';
import { ROLE_IDS } from './permissions.ts';

const key = (k: MessageKey) => k;
const DISPLAY_NAME_MAX = 255;

export const RoleSchema = z.object({ id: z.enum(ROLE_IDS), name: z.string() });
export type Role = z.infer<typeof RoleSchema>;

export const ListRolesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(PENDING_INVITATIONS_MAX).default(PENDING_INVITATIONS_MAX),
});
export const ListRolesResponseSchema = z.object({ results: z.array(RoleSchema), total: z.number().int() });
export type ListRolesResponse = z.infer<typeof ListRolesResponseSchema>;

/** An application a member or an invitation is limited to. */
export const ApplicationScopeSchema = z.object({ id: z.string(), name: z.string() });
export type ApplicationScope = z.infer<typeof ApplicationScopeSchema>;

const RoleRefSchema = z.object({ id: z.enum(ROLE_IDS) });

/** A member (§3). applicationScopes null means all applications; lastLogin is epoch ms, 0 for never. */
export const MemberSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  email: z.string(),
  roles: z.array(RoleRefSchema),
  applicationScopes: z.array(ApplicationScopeSchema).nullable(),
  lastLogin: z.number(),
  /** False for members who sign in only through an identity provider: they have no password to change. */
  hasPassword: z.boolean(),
});
export type Member = z.infer<typeof MemberSchema>;

export const MemberIdParamsSchema = z.object({ memberId: z.string().min(1).max(100) });

export const ListMembersQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(10_000).default(100),
});
export const ListMembersResponseSchema = z.object({
  results: z.array(MemberSchema),
  total: z.number().int(),
});
export type ListMembersResponse = z.infer<typeof ListMembersResponseSchema>;

export const displayNameField = z
  .string({ error: key('validation.displayName.required') })
  .trim()
  .min(1, key('validation.displayName.required'))
  .max(DISPLAY_NAME_MAX, key('validation.tooLong'));

const applicationIdList = z
  .array(z.string().min(1).max(100), { error: key('validation.applicationScopes.required') })
  .min(1, key('validation.applicationScopes.required'))
  .max(10_000);

/** Application ids the member or invitee is limited to; null (or absent) means all applications. */
export const applicationScopesField = applicationIdList.nullable().optional();

const oneRoleField = z
  .array(z.enum(ROLE_IDS, { error: key('validation.role.required') }), {
    error: key('validation.role.required'),
  })
  .length(1, key('validation.role.required'));

/**
 * PUT /api/v1/members/{id}. Editing oneself changes the display name only: role, scopes (and the
 * email, which is never editable) are ignored for one's own member.
 */
export const UpdateMemberRequestSchema = z.object({
  displayName: displayNameField,
  roleIds: oneRoleField.optional(),
  applicationScopes: applicationScopesField,
});
export type UpdateMemberRequest = z.infer<typeof UpdateMemberRequestSchema>;

/** The password typed again, in change password and the invitation sign-up. */
const confirmPasswordField = z
  .string({ error: key('validation.confirmPassword.required') })
  .min(1, key('validation.confirmPassword.required'));

/** Change own password (§5): current, new (strong) and confirmation, which must match. */
export const ChangePasswordRequestSchema = z
  .object({
    currentPassword: z
      .string({ error: key('validation.currentPassword.required') })
      .min(1, key('validation.currentPassword.required')),
    newPassword: strongPasswordField,
    confirmPassword: confirmPasswordField,
  })
  .check(confirmsPassword('newPassword', 'changePassword.mismatch'));
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequestSchema>;

export const InvitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  roles: z.array(RoleRefSchema),
  applicationScopes: z.array(ApplicationScopeSchema).nullable(),
  status: z.enum(INVITATION_STATUSES),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type Invitation = z.infer<typeof InvitationSchema>;

export const InvitationIdParamsSchema = z.object({ invitationId: z.string().min(1).max(100) });

export const ListInvitationsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(PENDING_INVITATIONS_MAX).default(PENDING_INVITATIONS_MAX),
});
export const ListInvitationsResponseSchema = z.object({
  results: z.array(InvitationSchema),
  total: z.number().int(),
});
export type ListInvitationsResponse = z.infer<typeof ListInvitationsResponseSchema>;

export const CreateInvitationsRequestSchema = z.object({
  emails: z
    .array(emailField, { error: key('validation.email.required') })
    .min(1, key('validation.email.required'))
    .max(INVITATION_EMAILS_PER_REQUEST, key('validation.invitationEmails.tooMany')),
  roleIds: oneRoleField,
  applicationScopes: applicationScopesField,
});
export type CreateInvitationsRequest = z.infer<typeof CreateInvitationsRequestSchema>;
export const CreateInvitationsResponseSchema = z.object({ results: z.array(InvitationSchema) });
export type CreateInvitationsResponse = z.infer<typeof CreateInvitationsResponseSchema>;

export const VerifyInvitationRequestSchema = z.object({
  code: z
    .string({ error: key('invitation.error.invalid') })
    .trim()
    .min(1, key('invitation.error.invalid'))
    .max(200),
});
export const VerifyInvitationResponseSchema = z.object({
  invitationId: z.string(),
  organizationName: z.string(),
  email: z.string(),
});
export type VerifyInvitationResponse = z.infer<typeof VerifyInvitationResponseSchema>;

/** Sign-up by invitation (§3): the password must be strong and confirmed ('Password mismatch'). */
export const ConfirmInvitationRequestSchema = z
  .object({
    displayName: displayNameField,
    password: strongPasswordField,
    confirmPassword: confirmPasswordField,
    code: VerifyInvitationRequestSchema.shape.code,
  })
  .check(confirmsPassword('password', 'validation.password.mismatch'));
export type ConfirmInvitationRequest = z.infer<typeof ConfirmInvitationRequestSchema>;
export const ConfirmInvitationResponseSchema = z.object({ member: MemberSchema });
export type ConfirmInvitationResponse = z.infer<typeof ConfirmInvitationResponseSchema>;
