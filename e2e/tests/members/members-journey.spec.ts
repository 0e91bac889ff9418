import type { Page } from '@playwright/test';
import { Applications } from '../../support/applications.ts';
import { ACME, expect, test, uniqueEmail } from '../../support/fixtures.ts';
import {
  alreadyInOrganization,
  alreadyInvited,
  confirmDialog,
  inAnotherOrganization,
  invitationLink,
  joinAs,
  memberLimitReached,
  Members,
  pickApplications,
  rowOf,
  signUpFromInvitation,
  submitInviteForm,
} from '../../support/members.ts';
import { loginRedirectUrl, mainNavigation, signOutThroughUserMenu, submitSignIn } from '../../support/ui.ts';

const NEW_PASSWORD = 'N3w!Passw0rd-2026';

/** The names of the application cards on the list the page shows. */
async function expectAppCards(page: Page, names: string[]) {
  const cards = page.getByRole('article');
  await expect(cards).toHaveCount(names.length);
  for (const name of names) await expect(page.getByRole('article', { name, exact: true })).toBeVisible();
}

test('the super-admin invites a developer to one application, widens and narrows the access, then deletes them', async ({
  page,
  users,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  await users.signedIn({ label: 'members-owner' });
  const apps = new Applications(page.request, baseURL!);
  await apps.create({ name: 'Alpha Rocket', plan: 'basic', region: 'EU' });
  await apps.create({ name: 'Beta Rocket', plan: 'advance', region: 'SG' });
  await apps.waitUntilAllActive(2);
  const developerEmail = uniqueEmail('developer');
  let invitedAt = 0;

  await test.step('the super-admin invites the developer to Alpha Rocket only', async () => {
    await page.goto('/manage-members');
    await page.getByRole('button', { name: 'Invite members' }).click();
    await expect(page).toHaveURL(/\/invite-members$/);
    invitedAt = Date.now();
    await submitInviteForm(page, {
      emails: [developerEmail],
      role: 'Developer',
      applications: ['Alpha Rocket'],
    });
    await expect(page.getByRole('status').filter({ hasText: 'Invitations sent' })).toBeVisible();

    await page.getByRole('link', { name: 'Go to manage members' }).click();
    await page.getByRole('tab', { name: 'Invited members' }).click();
    await expect(rowOf(page, developerEmail)).toContainText('Developer');
  });

  const context = await browser.newContext({ baseURL });
  try {
    const developer = await context.newPage();

    await test.step('the mailed link signs the developer up in a browser of their own', async () => {
      const link = await invitationLink(developerEmail, invitedAt);
      await signUpFromInvitation(
        developer,
        link,
        { organization: ACME.organization, email: developerEmail },
        'Dee Veloper',
      );
    });

    await test.step('the developer sees Apps only, the one application, and no members page', async () => {
      const navigation = mainNavigation(developer);
      await expect(navigation.getByRole('link', { name: 'Apps', exact: true })).toBeVisible();
      for (const hidden of [
        'Billing',
        'Dashboard',
        'Organization settings',
        'Manage members',
        'Manage payment',
      ])
        await expect(navigation.getByText(hidden, { exact: true })).toHaveCount(0);
      await expectAppCards(developer, ['Alpha Rocket']);

      await developer.goto('/manage-members');
      await expect(developer).toHaveURL(/\/forbidden$/);
    });

    await test.step('the super-admin widens the access to both applications', async () => {
      await page.goto('/manage-members');
      const row = rowOf(page, developerEmail);
      await expect(row).toContainText('Dee Veloper');
      await expect(row.getByRole('button', { name: '1 application' })).toBeVisible();
      await row.getByRole('button', { name: 'Edit', exact: true }).click();
      await expect(page).toHaveURL(/\/manage-members\/[^/]+$/);
      await expect(page.getByRole('radio', { name: 'Selected applications' })).toBeChecked();
      await pickApplications(page, ['Beta Rocket']);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await confirmDialog(page, 'Save changes');
      await expect(page.getByText('The profile has been saved.')).toBeVisible();

      await developer.goto('/apps/asc');
      await expectAppCards(developer, ['Alpha Rocket', 'Beta Rocket']);
    });

    await test.step('the super-admin narrows the access back to one application', async () => {
      await page.reload();
      const applications = page.getByRole('combobox', { name: 'Applications', exact: true });
      // The last picked application (Beta Rocket, after Alpha Rocket) goes with Backspace.
      await applications.click();
      await applications.press('Backspace');
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await confirmDialog(page, 'Save changes');
      await expect(page.getByText('The profile has been saved.')).toBeVisible();

      await developer.reload();
      await expectAppCards(developer, ['Alpha Rocket']);
    });

    await test.step('the super-admin deletes the developer, whose next visit lands on /login', async () => {
      await page.goto('/manage-members');
      await rowOf(page, developerEmail).getByRole('button', { name: 'Delete', exact: true }).click();
      await confirmDialog(page, 'Delete member');
      await expect(page.getByText('Dee Veloper has been removed from your organization.')).toBeVisible();
      await expect(rowOf(page, developerEmail)).toHaveCount(0);

      await developer.goto('/apps/asc');
      await expect(developer).toHaveURL(loginRedirectUrl('/apps/asc'));
      expect((await developer.request.get('/api/v1/accounts/me')).status()).toBe(401);
    });
  } finally {
    await context.close();
  }
});

test("changing one's password on /edit-profile needs the right current password; the new one signs in", async ({
  page,
  users,
}) => {
  const user = await users.signedIn({ label: 'members-password' });
  await page.goto('/edit-profile');
  await page.getByRole('tab', { name: 'Change password' }).click();
  const current = page.getByRole('textbox', { name: 'Current password' });

  await current.fill('Wr0ng!Password-1');
  await page.getByRole('textbox', { name: 'New password', exact: true }).fill(NEW_PASSWORD);
  await page.getByRole('textbox', { name: 'Confirm new password' }).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Change password' }).click();
  await confirmDialog(page, 'Change password');
  await expect(page.getByText('Invalid current password. Please try again.')).toBeVisible();

  await current.fill(user.password);
  await page.getByRole('button', { name: 'Change password' }).click();
  await confirmDialog(page, 'Change password');
  await expect(page.getByText('Your password has been changed.')).toBeVisible();

  await signOutThroughUserMenu(page);
  await expect(page).toHaveURL(/\/login$/);
  await submitSignIn(page, user);
  await expect(page.getByRole('alert').filter({ hasText: 'Incorrect username or password.' })).toBeVisible();
  await submitSignIn(page, { ...user, password: NEW_PASSWORD });
  await expect(page).toHaveURL(/\/apps\/asc$/);
});

test('the invite form words the §8 refusals: an existing member, and an address invited twice', async ({
  page,
  users,
}) => {
  const owner = await users.signedIn({ label: 'members-duplicates' });
  const invitee = uniqueEmail('twice');
  await page.goto('/invite-members');

  await submitInviteForm(page, { emails: [owner.email], role: 'Analyst' });
  await expect(page.getByText(alreadyInOrganization(owner.email))).toBeVisible();

  await page.reload();
  await submitInviteForm(page, { emails: [invitee], role: 'Analyst' });
  await expect(page.getByRole('status').filter({ hasText: 'Invitations sent' })).toBeVisible();
  await page.getByRole('button', { name: 'Invite more' }).click();
  await submitInviteForm(page, { emails: [invitee], role: 'Analyst' });
  await expect(page.getByText(alreadyInvited(invitee))).toBeVisible();
});

test('the invite form words the other §8 refusals: another organisation’s user, and the member limit', async ({
  page,
  users,
  baseURL,
}) => {
  // Signed up (before the owner signs in on this page) and so a user of an organisation of their own.
  const elsewhere = await users.create({ label: 'elsewhere' });
  await users.signedIn({ label: 'members-limit' });
  await page.goto('/invite-members');
  await submitInviteForm(page, { emails: [elsewhere.email], role: 'Analyst' });
  await expect(page.getByText(inAnotherOrganization(elsewhere.email))).toBeVisible();

  // A new organisation may have 10 members: the owner and nine open invitations fill it.
  const nine = Array.from({ length: 9 }, (_, i) => uniqueEmail(`seat${i}`));
  const invited = await new Members(page.request, baseURL!).invite(nine, 'portal.analyst');
  expect(invited.status()).toBe(201);
  await page.reload();
  await submitInviteForm(page, { emails: [uniqueEmail('one-too-many')], role: 'Analyst' });
  await expect(page.getByText(memberLimitReached(10))).toBeVisible();
});

test.describe('roles in the browser', () => {
  test('an invited analyst is refused the application list', async ({ page, users, browser, baseURL }) => {
    await users.signedIn({ label: 'roles-analyst-owner' });
    const analyst = await joinAs(browser, baseURL!, new Members(page.request, baseURL!), 'portal.analyst');
    try {
      await analyst.page.goto('/apps/asc');
      await expect(analyst.page).toHaveURL(/\/forbidden$/);
      await expect(analyst.page.getByText('You do not have permission to access this page.')).toBeVisible();
    } finally {
      await analyst.context.close();
    }
  });

  test('a moderator sees the applications without the create button, and the server refuses the create call', async ({
    page,
    users,
    browser,
    baseURL,
  }) => {
    await users.signedIn({ label: 'roles-moderator-owner' });
    const apps = new Applications(page.request, baseURL!);
    await apps.create({ name: 'Moderated App', plan: 'basic', region: 'EU' });
    await apps.waitUntilAllActive(1);
    // The super-admin's list offers the create button, so its absence below is the role's doing.
    await page.goto('/apps/asc');
    await expect(page.getByRole('link', { name: 'Create application' })).toBeVisible();
    const moderator = await joinAs(
      browser,
      baseURL!,
      new Members(page.request, baseURL!),
      'portal.moderator',
    );
    try {
      await moderator.page.goto('/apps/asc');
      await expect(moderator.page).toHaveURL(/\/apps\/asc$/);
      await expect(moderator.page.getByRole('article', { name: 'Moderated App', exact: true })).toBeVisible();
      await expect(moderator.page.getByRole('link', { name: 'Create application' })).toHaveCount(0);

      const refused = await new Applications(moderator.page.request, baseURL!).post({
        name: 'Not Mine',
        plan: 'basic',
        region: 'EU',
      });
      expect(refused.status()).toBe(403);
      expect((await apps.list()).total).toBe(1);
    } finally {
      await moderator.context.close();
    }
  });
});

test.describe('invitation links', () => {
  test('a link with an unknown code leads to /invitation-invalid', async ({ page }) => {
    await page.goto('/invitation-signup?code=not-a-real-code');
    await expect(page).toHaveURL(/\/invitation-invalid$/);
    await expect(page.getByText('This invitation link is not valid')).toBeVisible();
  });

  test('/invitation-expired says the link expired', async ({ page }) => {
    // An expired invitation cannot be made from the browser (the server dates it 7 days ahead and
    // only a database update moves that), so the page is checked by direct navigation.
    await page.goto('/invitation-expired');
    await expect(page.getByText('The invitation link has expired')).toBeVisible();
  });
});
