import {
  expect,
  type APIRequestContext,
  type APIResponse,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
} from '@playwright/test';
import type { RoleId, VerifyInvitationResponse } from '@portal/contracts';
import { STRONG_PASSWORD, uniqueEmail, type TestUser } from './fixtures.ts';
import { linkIn, waitForMail } from './mail-store.ts';

export const INVITATION_SUBJECT = /invited to join/i;

/** Roles an invitation may grant, by role id (§3) and by the label the invite form shows. */
export const ROLE_LABELS = {
  'portal.admin': 'Admin',
  'portal.moderator': 'Moderator',
  'portal.analyst': 'Analyst',
  'portal.developer': 'Developer',
} as const satisfies Partial<Record<RoleId, string>>;
export type InvitableRole = keyof typeof ROLE_LABELS;

/** §8 wording of the invite form's refusals. */
export const alreadyInOrganization = (email: string) => `${email} is already in the organization.`;
export const alreadyInvited = (email: string) =>
  `${email} are already been invited. Please use a different email.`;
export const inAnotherOrganization = (email: string) => `${email} is already associated with another organization.`;
export const memberLimitReached = (limit: number) =>
  `Member limit reached. You have reached the ${limit}-member limit in your organization. But you can still remove or replace them.`;

/**
 * Members and invitations through the portal's /api/v1, with the session of the request context it
 * is given (a page's, so the page sees the same organisation).
 */
export class Members {
  constructor(
    private readonly request: APIRequestContext,
    private readonly origin: string,
  ) {}

  /** POST /api/v1/invitations, as the invite form sends it; answers the raw response. */
  invite(
    emails: string[],
    roleId: InvitableRole,
    applicationScopes: string[] | null = null,
  ): Promise<APIResponse> {
    return this.request.post('/api/v1/invitations', {
      data: { emails, roleIds: [roleId], applicationScopes },
      headers: { origin: this.origin },
    });
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
export async function acceptThroughApi(
  browser: Browser,
  baseURL: string,
  link: URL,
  displayName: string,
): Promise<Invitee> {
  const context = await browser.newContext({ baseURL });
  try {
    const code = link.searchParams.get('code') ?? '';
    const verified = await context.request.post('/api/invitations/verify', {
      data: { code },
      headers: { origin: baseURL },
    });
    if (verified.status() !== 200)
      throw new Error(`verify answered ${verified.status()}: ${await verified.text()}`);
    const { invitationId, email } = (await verified.json()) as VerifyInvitationResponse;
    const confirmed = await context.request.post(`/api/invitations/${invitationId}/confirm`, {
      data: { displayName, password: STRONG_PASSWORD, confirmPassword: STRONG_PASSWORD, code },
      headers: { origin: baseURL },
    });
    if (confirmed.status() !== 201)
      throw new Error(`confirm answered ${confirmed.status()}: ${await confirmed.text()}`);
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
  if (invited.status() !== 201)
    throw new Error(`inviting ${email} answered ${invited.status()}: ${await invited.text()}`);
  return acceptThroughApi(browser, baseURL, await invitationLink(email, since), ROLE_LABELS[roleId]);
}

/** The row of the members (or invited members) table that shows `email`. */
export function rowOf(page: Page, email: string): Locator {
  return page.getByRole('row').filter({ hasText: email });
}

export interface InviteFields {
  emails: string[];
  role: (typeof ROLE_LABELS)[InvitableRole];
  /** Application names for 'Selected applications'; all applications when absent. */
  applications?: string[];
}

/** Fills the /invite-members form the page is on and sends it. */
export async function submitInviteForm(page: Page, { emails, role, applications }: InviteFields) {
  const addresses = page.getByRole('combobox', { name: 'Email addresses' });
  for (const email of emails) {
    await addresses.fill(email);
    await addresses.press('Enter');
  }
  await page.getByRole('combobox', { name: 'Role', exact: true }).click();
  await page.getByRole('option', { name: role, exact: true }).click();
  if (applications) {
    await page.getByRole('radio', { name: 'Selected applications' }).check();
    await pickApplications(page, applications);
  }
  await page.getByRole('button', { name: 'Send invitations' }).click();
}

/** Adds applications in the 'Applications' multi-select of the invite or edit form. */
export async function pickApplications(page: Page, names: string[]) {
  const select = page.getByRole('combobox', { name: 'Applications', exact: true });
  for (const name of names) {
    await select.click();
    await page.getByRole('option', { name, exact: true }).click();
  }
  await page.keyboard.press('Escape');
}

/**
 * Opens an invitation link in the page (a browser context of the invitee's own) and creates the
 * account from its form; the page lands signed in on the application list.
 */
export async function signUpFromInvitation(
  page: Page,
  link: URL,
  expected: { organization: string; email: string },
  displayName: string,
  password = STRONG_PASSWORD,
) {
  await page.goto(link.toString());
  await expect(page.getByRole('heading', { name: `Join ${expected.organization}` })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Email', exact: true })).toHaveValue(expected.email);
  await page.getByRole('textbox', { name: 'Display name' }).fill(displayName);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('textbox', { name: 'Confirm password' }).fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/apps\/asc$/);
}

/** Submits a confirm dialog (member edit, deletion, password change) by its Confirm button. */
export async function confirmDialog(page: Page, title: string) {
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.getByRole('button', { name: 'Confirm', exact: true }).click();
  await expect(dialog).toBeHidden();
}
