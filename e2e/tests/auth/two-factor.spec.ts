import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { freshTotp, keyOf, staleTotp } from '../../../apps/api/test/totp.ts';
import { expectNoSeriousA11yViolations } from '../../support/axe.ts';
import { expect, test, type TestUser } from '../../support/fixtures.ts';
import { joinAs, Members } from '../../support/members.ts';
import { screenshotsAtWidths } from '../../support/screenshots.ts';
import { loginRedirectUrl, signOutThroughUserMenu, submitSignIn } from '../../support/ui.ts';

/*
 * Two-factor authentication in the browser (beyond the spec): a member turns it on from
 * /edit-profile, reading the key from the page and computing the app's codes here (RFC 6238, as an
 * authenticator app does), then signs in with a code, with a backup code, and is refused a wrong
 * or used one; a super-admin requires it, and a member without it is led through enrolment.
 */

const WRONG_CODE = 'This code is not correct. Enter the code your authenticator app shows now.';
const USED_BACKUP_CODE = 'This backup code is not correct or was already used.';
const OWN_FIRST =
  'Turn on two-factor authentication for your own account before requiring it for your organization.';

/** Screens for a person to look at: e2e/test-results/screenshots/two-factor-<screen>-<width>.png */
const screenshots = (page: Page, screen: string) => screenshotsAtWidths(page, `two-factor-${screen}`);

/**
 * The enrolment the page shows (on /edit-profile or /two-factor-setup): the password, the key read
 * from the page, a first code, and the backup codes; answers the key and the codes.
 */
async function enrolOnPage(page: Page, password: string, screen?: string) {
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(
    page.getByRole('img', { name: 'QR code that adds this account to an authenticator app' }),
  ).toBeVisible();
  const key = (await page.getByTestId('two-factor-key').innerText()).replace(/\s+/g, '');
  expect(key).toMatch(/^[A-Z2-7]{32,}$/);
  if (screen) {
    await screenshots(page, screen);
    await expectNoSeriousA11yViolations(page, 'two-factor enrolment');
  }

  const code = page.getByRole('textbox', { name: 'Code from the app' });
  await code.fill(staleTotp(key));
  await page.getByRole('button', { name: 'Verify and turn on' }).click();
  await expect(page.getByText(WRONG_CODE)).toBeVisible();
  await code.fill(await freshTotp(key));
  await page.getByRole('button', { name: 'Verify and turn on' }).click();

  const list = page.getByRole('list', { name: 'Your backup codes' });
  await expect(list.getByRole('listitem')).toHaveCount(10);
  const backupCodes = (await list.getByRole('listitem').allInnerTexts()).map((text) => text.trim());
  for (const backupCode of backupCodes) expect(backupCode).toMatch(/^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/);
  return { key, backupCodes };
}

/** Through /login to the second step, which keeps where the sign-in was going. */
async function passwordStep(page: Page, user: TestUser, from = '/billing/asc') {
  await page.goto(from);
  await expect(page).toHaveURL(loginRedirectUrl(from));
  await submitSignIn(page, user);
  await expect(page).toHaveURL(new RegExp(`/two-factor\\?redirect=${encodeURIComponent(from)}$`));
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();
}

async function signOut(page: Page) {
  await signOutThroughUserMenu(page);
  await expect(page).toHaveURL(/\/login$/);
}

test('a member turns on two-factor authentication and signs in with a code or a backup code', async ({
  page,
  users,
}) => {
  test.setTimeout(180_000);
  const user = await users.signedIn({ label: 'two-factor' });
  let enrolled = { key: '', backupCodes: [] as string[] };

  await test.step('/edit-profile turns it on: password, QR code and key, a code, backup codes shown once', async () => {
    await page.goto('/edit-profile');
    await page.getByRole('tab', { name: 'Security' }).click();
    const panel = page.getByRole('tabpanel', { name: 'Security' });
    await expect(panel.getByText('Off', { exact: true })).toBeVisible();
    await panel.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
    enrolled = await enrolOnPage(page, user.password, 'enrolment');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download' }).click();
    const file = fs.readFileSync(await (await download).path(), 'utf8');
    expect(file.split('\n').filter((line) => /^\w{5}-\w{5}$/.test(line))).toEqual(enrolled.backupCodes);
    await screenshots(page, 'backup-codes');
    await expectNoSeriousA11yViolations(page, 'backup codes');

    await page.getByRole('button', { name: 'I have saved my backup codes' }).click();
    await expect(page.getByText('Two-factor authentication is on.').first()).toBeVisible();
    await expect(panel.getByText('On', { exact: true })).toBeVisible();
    await expect(panel.getByRole('list', { name: 'Your backup codes' })).toHaveCount(0);
    // Shown once: the page has no way to show them again.
    await page.reload();
    await page.getByRole('tab', { name: 'Security' }).click();
    await expect(page.getByRole('button', { name: 'Turn off' })).toBeVisible();
    await expect(page.getByText(enrolled.backupCodes[0]!)).toHaveCount(0);
  });

  await test.step('signing in asks for the code; a wrong one is refused, the right one goes on', async () => {
    await signOut(page);
    await passwordStep(page, user);
    await screenshots(page, 'sign-in');
    await expectNoSeriousA11yViolations(page, 'second step of sign-in');
    const field = page.getByLabel('Authentication code');
    await field.fill(staleTotp(enrolled.key));
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await expect(page.getByText(WRONG_CODE)).toBeVisible();
    expect((await page.request.get('/api/v1/accounts/me')).status()).toBe(401);
    await field.fill(await freshTotp(enrolled.key));
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await expect(page).toHaveURL(/\/billing\/asc$/);
  });

  await test.step('a backup code signs in once', async () => {
    await signOut(page);
    await passwordStep(page, user);
    await page.getByRole('button', { name: 'Use a backup code instead' }).click();
    await page.getByLabel('Backup code').fill(enrolled.backupCodes[0]!);
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await expect(page).toHaveURL(/\/billing\/asc$/);

    await signOut(page);
    await passwordStep(page, user);
    await page.getByRole('button', { name: 'Use a backup code instead' }).click();
    await page.getByLabel('Backup code').fill(enrolled.backupCodes[0]!);
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await expect(page.getByText(USED_BACKUP_CODE)).toBeVisible();
    await page.getByLabel('Backup code').fill(enrolled.backupCodes[1]!);
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await expect(page).toHaveURL(/\/billing\/asc$/);
  });

  await test.step('turning it off asks for the password; sign-in then asks for no code', async () => {
    await page.goto('/edit-profile');
    await page.getByRole('tab', { name: 'Security' }).click();
    await page.getByRole('button', { name: 'Turn off' }).click();
    const dialog = page.getByRole('dialog', { name: 'Turn off two-factor authentication' });
    await dialog.getByRole('textbox', { name: 'Password', exact: true }).fill('Wr0ng!Password');
    await dialog.getByRole('button', { name: 'Turn off' }).click();
    await expect(dialog.getByText('Invalid current password. Please try again.')).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Password', exact: true }).fill(user.password);
    await dialog.getByRole('button', { name: 'Turn off' }).click();
    await expect(dialog).toBeHidden();
    await expect(
      page.getByRole('tabpanel', { name: 'Security' }).getByText('Off', { exact: true }),
    ).toBeVisible();

    await signOut(page);
    await page.goto('/billing/asc');
    await submitSignIn(page, user);
    await expect(page).toHaveURL(/\/billing\/asc$/);
  });
});

test('a required second factor leads a member without one through enrolment', async ({
  page,
  users,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  await users.signedIn({ label: 'two-factor-owner' });
  const developer = await joinAs(browser, baseURL!, new Members(page.request, baseURL!), 'portal.developer');

  try {
    const requireSwitch = page.getByRole('switch', { name: 'Require two-factor authentication' });
    const confirm = async () => {
      const dialog = page.getByRole('dialog', { name: 'Two-factor authentication' });
      await dialog.getByRole('button', { name: 'Confirm', exact: true }).click();
      await expect(dialog).toBeHidden();
    };

    await test.step('the super-admin must have it before requiring it', async () => {
      await page.goto('/manage-members');
      await expect(page.getByText('Turn it on for your own account first:')).toBeVisible();
      await requireSwitch.click();
      await confirm();
      await expect(page.getByText(OWN_FIRST)).toBeVisible();
      await expect(requireSwitch).not.toBeChecked();
    });

    await test.step('with it on, the super-admin requires it for the organisation', async () => {
      // Enrolled through the API with the page's session (the browser enrolment is the test above).
      const origin = { origin: baseURL! };
      const started = await page.request.post('/api/auth/two-factor/enable', {
        data: { password: 'Str0ng!Passw0rd' },
        headers: origin,
      });
      expect(started.status()).toBe(200);
      const key = keyOf(((await started.json()) as { totpURI: string }).totpURI);
      const confirmed = await page.request.post('/api/auth/two-factor/verify-totp', {
        data: { code: await freshTotp(key) },
        headers: origin,
      });
      expect(confirmed.status()).toBe(200);

      await page.reload();
      await expect(page.getByText('Turn it on for your own account first:')).toHaveCount(0);
      await requireSwitch.click();
      await confirm();
      await expect(page.getByText('Two-factor authentication is now required.')).toBeVisible();
      await expect(requireSwitch).toBeChecked();
      await expectNoSeriousA11yViolations(page, 'manage members with the requirement');
    });

    await test.step('the member, already signed in, is led to set it up before anything else', async () => {
      const member = developer.page;
      await member.goto('/edit-profile');
      await expect(member).toHaveURL(/\/two-factor-setup\?redirect=%2Fedit-profile$/);
      await expect(member.getByRole('heading', { name: 'Set up two-factor authentication' })).toBeVisible();
      await expect(member.getByText('Acme Rockets requires two-factor authentication.')).toBeVisible();
      await screenshots(member, 'required');
      await expectNoSeriousA11yViolations(member, 'required enrolment');
      const { key } = await enrolOnPage(member, developer.user.password);
      await member.getByRole('button', { name: 'I have saved my backup codes' }).click();
      // On to where the member was going.
      await expect(member).toHaveURL(/\/edit-profile$/);
      await member.getByRole('tab', { name: 'Security' }).click();
      await expect(member.getByText('Your organization requires two-factor authentication.')).toBeVisible();

      // From now on the member signs in with a code.
      await signOut(member);
      await passwordStep(member, developer.user, '/apps/asc');
      await member.getByLabel('Authentication code').fill(await freshTotp(key));
      await member.getByRole('button', { name: 'Verify', exact: true }).click();
      await expect(member).toHaveURL(/\/apps\/asc$/);
    });
  } finally {
    await developer.context.close();
  }
});
