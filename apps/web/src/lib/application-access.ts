import { isScopableRole, ROLE_IDS, type ApplicationScope, type MessageKey } from '@portal/contracts';
import { z } from 'zod';

const key = (k: MessageKey) => k;

/** All applications, or the ones chosen (§5 application access). */
export type ApplicationAccess = 'all' | 'selected';

/**
 * A role and its application access as forms hold them: the invite and member forms, and the
 * default role of members who arrive through single sign-on.
 */
export interface AccessFormFields {
  roleId: string;
  access: ApplicationAccess;
  applicationIds: string[];
}

/** The schemas of the three fields, to spread into a form's object schema. */
export const accessFormFields = {
  // The form starts with no role (''); a submitted form holds a role id.
  roleId: z.string().min(1, key('validation.role.required')).pipe(z.enum(ROLE_IDS)),
  access: z.enum(['all', 'selected'] satisfies ApplicationAccess[]),
  applicationIds: z.array(z.string()),
};

/** 'Selected applications' needs at least one application, for the roles that may be limited. */
export function requireSelectedApplications(value: AccessFormFields, ctx: z.RefinementCtx) {
  if (isScopableRole(value.roleId) && value.access === 'selected' && value.applicationIds.length === 0) {
    ctx.addIssue({
      code: 'custom',
      path: ['applicationIds'],
      message: key('validation.applicationScopes.required'),
    });
  }
}

/** The form's fields for a role and the applications it is limited to (null: all). */
export function accessFormValuesOf(
  roleId: string,
  scopes: readonly ApplicationScope[] | null,
): AccessFormFields {
  return {
    roleId,
    access: scopes ? 'selected' : 'all',
    applicationIds: scopes?.map((scope) => scope.id) ?? [],
  };
}

/** The applicationScopes to send: null (all) unless the role may be limited and selected apps were chosen. */
export function applicationScopesFor(
  roleId: string,
  access: ApplicationAccess,
  applicationIds: string[],
): string[] | null {
  return isScopableRole(roleId) && access === 'selected' ? applicationIds : null;
}
