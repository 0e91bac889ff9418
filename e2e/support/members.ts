import { expect, type APIRequestContext, type APIResponse, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { STRONG_PASSWORD, uniqueEmail, type TestUser } from './fixtures.ts';
import { linkIn, waitForMail } from './mail-store.ts';

export const INVITATION_SUBJECT = /invited to join/i;

/** Roles an invitation may grant, by role id (§3) and by the label the invite form shows. */
export const ROLE_LABELS = {
  'portal.admin': 'Admin',
  'portal.moderator': 'Moderator',
  'portal.analyst': 'Analyst',
  'portal.developer': 'Developer',
} as const;
export type InvitableRole = keyof typeof ROLE_LABELS;

export interface MemberBody {
  id: string;
  displayName: string;
  email: string;
  roles: { id: string }[];
  applicationScopes: { id: string; name: string }[] | null;
  lastLogin: number;
}

/** §8 wording of the invite form's refusals. */
export const alreadyInOrganization = (email: string) => `${email} is already in the organization.`;
export const alreadyInvited = (email: string) => `${email} are already been invited. Please use a different email.`;

/**
 * Members and invitations through the portal's /api/v1, with the session of the request context it
 * is given (a page's, so the page sees the same organisation).
 */
export class Members {
  constructor(
    private readonly request: APIRequestContext,
    private readonly origin: string,
  ) {}

  /** The raw POST /api/v1/invitations, for tests that look at refusals. */
  invite(emails: string[], roleId: InvitableRole, applicationScopes: string[] | null = null): Promise<APIResponse> {
    return this.request.post('/api/v1/invitations', {
      data: { emails, roleIds: [roleId], applicationScopes },
      headers: { origin: this.origin },
    });
  }

  async list(): Promise<MemberBody[]> {
    const response = await this.request.get('/api/v1/members?limit=100');
    expect(response.status()).toBe(200);
    return ((await response.json()) as { results: MemberBody[] }).results;
  }

  async byEmail(email: string): Promise<MemberBody> {
    const member = (await this.list()).find((m) => m.email === email.toLowerCase());
    if (!member) throw new Error(`${email} is not a member`);
    return member;
  }
}

/** The /invitation-signup link of the newest invitation mailed to `email` since `since`. */
export async function invitationLink(email: string, since = 0): Promise<URL> {
  const link = linkIn(await waitForMail(email, INVITATION_SUBJECT, { since }), '/invitation-signup');
  expect(link.searchParams.get('code')).toBeTruthy();
  return link;
}

export interface Invitee {
  user: TestUser;
  context: BrowserContext;
  page: Page;
}

/**
 * Someone who accepts an invitation link through the public API (verify, then confirm) in a
 * browser context of their own, which the confirmation signs in. Close `context` when done.
 */
export async function acceptThroughApi(browser: Browser, baseURL: string, link: URL, displayName: string): Promise<Invitee> {
  const context = await browser.newContext({ baseURL });
  try {
    const code = link.searchParams.get('code') ?? '';
    const verified = await context.request.post('/api/invitations/verify', { data: { code }, headers: { origin: baseURL } });
    if (verified.status() !== 200) throw new Error(`verify answered ${verified.status()}: ${await verified.text()}`);
    const { invitationId, email } = (await verified.json()) as { invitationId: string; email: string };
    const confirmed = await context.request.post(`/api/invitations/${invitationId}/confirm`, {
      data: { displayName, password: STRONG_PASSWORD, confirmPassword: STRONG_PASSWORD, code },
      headers: { origin: baseURL },
    });
    if (confirmed.status() !== 201) throw new Error(`confirm answered ${confirmed.status()}: ${await confirmed.text()}`);
    return { user: { email, password: STRONG_PASSWORD }, context, page: await context.newPage() };
  } catch (error) {
    await context.close();
    throw error;
  }
}

/**
 * A new member of the organisation whose super-admin's session `members` carries: invited with
 * `roleId` through the API, then joined from the mailed link in a browser context of their own.
 */
export async function joinAs(
  browser: Browser,
  baseURL: string,
  members: Members,
  roleId: InvitableRole,
  applicationScopes: string[] | null = null,
): Promise<Invitee> {
  const email = uniqueEmail(ROLE_LABELS[roleId].toLowerCase());
  const since = Date.now();
  const invited = await members.invite([email], roleId, applicationScopes);
  if (invited.status() !== 201) throw new Error(`inviting ${email} answered ${invited.status()}: ${await invited.text()}`);
  return acceptThroughApi(browser, baseURL, await invitationLink(email, since), ROLE_LABELS[roleId]);
}
