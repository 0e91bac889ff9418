import {
  INVITATION_EMAILS_PER_REQUEST,
  PENDING_INVITATIONS_MAX,
  splitEmailList,
  SUPER_ADMIN_ROLE,
  type Account,
  type ErrorCode,
  type Member,
  type Permission,
  uiPermissions,
} from '@portal/contracts';
import { formatDate, formatTime } from '../../lib/dates';
import { errorText, isToastedNetworkFailure } from '../../lib/api-error';

/** What the viewer may do on a row of the members table (§2 row actions). */
export type MemberRowAction = 'editProfile' | 'edit' | 'delete';

export interface Viewer {
  memberId: string;
  roleIds: readonly string[];
  permissions: readonly Permission[];
}

export function viewerOf(account: Pick<Account, 'memberId' | 'roles' | 'permissions'>): Viewer {
  return {
    memberId: account.memberId,
    roleIds: account.roles.map((role) => role.id),
    permissions: uiPermissions(account.permissions),
  };
}

export const isSuperAdmin = (member: Pick<Member, 'roles'>) =>
  member.roles.some((role) => role.id === SUPER_ADMIN_ROLE);

export function memberRowActions(member: Member, viewer: Viewer): MemberRowAction[] {
  if (member.id === viewer.memberId) return ['editProfile'];
  const sharesRole = member.roles.some((role) => viewer.roleIds.includes(role.id));
  if (isSuperAdmin(member) || sharesRole) return [];
  const actions: MemberRowAction[] = [];
  if (viewer.permissions.includes('EDIT_MEMBER')) actions.push('edit');
  if (viewer.permissions.includes('DELETE_MEMBER')) actions.push('delete');
  return actions;
}

/** Last login as a date and a time line, or null when the member never signed in (lastLogin 0). */
export function formatLastLogin(lastLogin: number): { date: string; time: string } | null {
  if (lastLogin === 0) return null;
  return { date: formatDate(lastLogin), time: formatTime(lastLogin) };
}

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** Members created by the portal get a version-4 UUID; any other id comes from an identity provider. */
export const isSsoUser = (memberId: string) => !UUID_V4.test(memberId);

export type SortDirection = 'asc' | 'desc';

export function sortMembersByName(members: readonly Member[], direction: SortDirection): Member[] {
  const sign = direction === 'asc' ? 1 : -1;
  return [...members].sort(
    (a, b) => sign * a.displayName.localeCompare(b.displayName, undefined, { sensitivity: 'base' }),
  );
}

/** How many addresses one invite form may hold: the pending quota left, at most 20 per submission. */
export function inviteMaxEntries(pendingCount: number): number {
  return Math.max(0, Math.min(PENDING_INVITATIONS_MAX - pendingCount, INVITATION_EMAILS_PER_REQUEST));
}

/**
 * The invite form's tags after any change: every tag (a paste may bring several addresses in one)
 * split on newlines, commas and semicolons, trimmed, deduplicated, and cut at the maximum.
 */
export function emailTagsFrom(tags: readonly string[], maxEntries: number): string[] {
  return splitEmailList(tags.join('\n')).slice(0, maxEntries);
}

/** The Invited members tab: hidden under enforced SSO while nothing is pending; a dot while something is. */
export function invitedTab(enforcedSSO: boolean, pendingCount: number): { visible: boolean; dot: boolean } {
  return { visible: !enforcedSSO || pendingCount > 0, dot: pendingCount > 0 };
}

export type InviteButtonState = 'hidden' | 'disabled' | 'enabled';

export function inviteButtonState(
  account: Pick<Account, 'enforcedSSO' | 'accountStatus' | 'memberLimit'>,
  permissions: readonly Permission[],
  memberCount: number,
): InviteButtonState {
  if (account.enforcedSSO || !permissions.includes('INVITE_MEMBER')) return 'hidden';
  return account.accountStatus === 'active' && memberCount < account.memberLimit ? 'enabled' : 'disabled';
}

/**
 * Refusals whose server message already carries the spec's wording, with the email or limit filled
 * in (§8), and the corporate-email rule (§5), worded 'Personal email is not allowed.': the server
 * refuses free-mail addresses the form does not know (decision 032).
 */
const WORDED_INVITE_ERRORS: readonly ErrorCode[] = [
  'INVITATION_LIMIT_EXCEEDED',
  'INVITATION_EMAIL_ALREADY_EXISTS',
  'MEMBER_EMAIL_ALREADY_EXISTS_IN_THIS_ORG',
  'MEMBER_EMAIL_ALREADY_EXISTS_IN_OTHER_ORG',
  'CORPORATE_EMAIL_REQUIRED',
];

/**
 * What an invite or member edit failure shows: the server's wording for the invitation refusals
 * above, 'Something went wrong' for anything else, nothing for network failures (already toasted).
 */
export function memberChangeErrorText(error: unknown): string | null {
  if (isToastedNetworkFailure(error)) return null;
  return errorText(error, { serverWordedCodes: WORDED_INVITE_ERRORS });
}
