import path from 'node:path';
import type { Page } from '@playwright/test';
import { E2E_DIR } from '../../harness/harness-state.ts';
import { ACME, expect, test, uniqueEmail } from '../../support/fixtures.ts';
import { googleTest, type GoogleIdentity } from '../../support/google-portal.ts';
import { openServerRenderedPage } from '../../support/first-render.ts';
import { expectSignedInLayout, submitOrganizationForm } from '../../support/ui.ts';

/*
 * Google sign-in in the browser, on a portal whose Google is a local OpenID provider that approves
 * at once as the identity each test names. The button, the provider's redirects, the portal's
 * callback and the route guard are all real.
 */

const CORPORATE_EMAIL_ERROR =
  'Please sign up with your corporate email. Personal email addresses are not allowed.';
const SIGN_UP_LINK = 'Sign up with your corporate email';
const GOOGLE_BUTTON = 'Continue with Google';
/** Screens for a person to look at: e2e/test-results/screenshots/google-<page>-<width>.png */
const SCREENSHOT_DIR = path.join(E2E_DIR, 'test-results', 'screenshots');
const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

let subjects = 0;
function googleIdentity(email: string): GoogleIdentity {
  subjects += 1;
  return { sub: `e2e-google-${Date.now().toString(36)}-${subjects}`, email, name: 'Grace Hopper' };
}

/** A personal address no other test uses. */
function gmailAddress(label: string): string {
  return uniqueEmail(label).replace(/@acme\.io$/, '@gmail.com');
}

async function screenshots(page: Page, name: string) {
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await page.screenshot({
      path: path.join(SCREENSHOT_DIR, `google-${name}-${size.width}.png`),
      fullPage: true,
    });
  }
}

/** The alert the guard's refusal shows: the corporate-email message with its link to sign-up by email. */
async function expectCorporateEmailRefusal(page: Page) {
  const alert = page.getByRole('alert').filter({ hasText: CORPORATE_EMAIL_ERROR });
  await expect(alert).toBeVisible();
  await expect(alert.getByRole('link', { name: SIGN_UP_LINK })).toHaveAttribute('href', '/signup');
  return alert;
}

googleTest('a Google sign-up with a corporate address sets up an organisation', async ({ page, google }) => {
  const person = googleIdentity(uniqueEmail('google-founder'));
  await page.goto('/signup');
  google.signInAs(person);
  await page.getByRole('button', { name: GOOGLE_BUTTON }).click();

  await expect(page).toHaveURL(/\/setup-organization$/);
  await submitOrganizationForm(page, { ...ACME, organization: 'Hopper Compilers' }, 'Singapore');
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('checkbox', { name: 'I have read and accept the Privacy Policy' }).check();
  await dialog.getByRole('button', { name: 'Next', exact: true }).click();
  await dialog.getByRole('checkbox', { name: 'I have read and accept the Terms and Conditions' }).check();
  await dialog.getByRole('button', { name: 'Confirm', exact: true }).click();

  await expect(page).toHaveURL(/\/apps\/asc$/);
  await expectSignedInLayout(page, 'Hopper Compilers');
  const account = await page.request.get('/api/v1/accounts/me');
  expect(account.status()).toBe(200);
  expect(await account.json()).toMatchObject({
    email: person.email,
    organization: 'Hopper Compilers',
    isAccountFilled: true,
    roles: [{ id: 'portal.super-admin' }],
  });
});

for (const startedOn of ['signup', 'login'] as const) {
  googleTest(
    `a Google sign-in with a gmail.com address started on /${startedOn} goes back there with the corporate-email message`,
    async ({ page, google }) => {
      await page.goto(`/${startedOn}`);
      await screenshots(page, startedOn);
      google.signInAs(googleIdentity(gmailAddress(`google-personal-${startedOn}`)));
      await page.getByRole('button', { name: GOOGLE_BUTTON }).click();

      await expect(page).toHaveURL(
        new RegExp(`/${startedOn}\\?error_description=[^&]*CORPORATE_EMAIL_REQUIRED`),
      );
      await expectCorporateEmailRefusal(page);
      await screenshots(page, `${startedOn}-refused`);
      expect((await page.request.get('/api/v1/accounts/me')).status()).toBe(401);

      // The link leads to the sign-up form, without the message.
      await page.getByRole('link', { name: SIGN_UP_LINK }).click();
      await expect(page).toHaveURL(/\/signup$/);
      await expect(page.getByText(CORPORATE_EMAIL_ERROR)).toHaveCount(0);
      await expect(page.getByLabel('Corporate email')).toBeVisible();
    },
  );
}

googleTest(
  'an existing member signing in with Google lands in their own organisation',
  async ({ page, users, google }) => {
    const member = await users.signedIn({
      label: 'google-member',
      organization: { ...ACME, organization: 'Lovelace Engines' },
    });
    const { memberId } = (await (await page.request.get('/api/v1/accounts/me')).json()) as {
      memberId: string;
    };
    await page.context().clearCookies();

    await page.goto('/login');
    google.signInAs(googleIdentity(member.email));
    await page.getByRole('button', { name: GOOGLE_BUTTON }).click();

    await expect(page).toHaveURL(/\/apps\/asc$/);
    await expectSignedInLayout(page, 'Lovelace Engines');
    expect(await (await page.request.get('/api/v1/accounts/me')).json()).toMatchObject({
      memberId,
      email: member.email,
    });
  },
);

test('without Google configured, /login and /signup offer no Google button', async ({ page }) => {
  for (const route of ['/login', '/signup']) {
    expect(await openServerRenderedPage(page, route)).toMatchObject({ googleSignIn: false });
    await expect(page.getByRole('button', { name: GOOGLE_BUTTON })).toHaveCount(0);
  }
});

googleTest(
  'a Google sign-in the person cancels comes back to the page it started on, saying so',
  async ({ page }) => {
    // No identity named: the stand-in answers as Google does when the consent screen is closed.
    await page.goto('/signup');
    await page.getByRole('button', { name: GOOGLE_BUTTON }).click();
    await expect(page).toHaveURL(/\/signup\?error=access_denied$/);
    await expect(page.getByRole('alert').filter({ hasText: 'Google sign-in was cancelled.' })).toBeVisible();
    await expect(page.getByRole('button', { name: GOOGLE_BUTTON })).toBeVisible();
  },
);
