import { expect, type Locator, type Page } from '@playwright/test';
import type { InitialSetupForm } from '@portal/contracts';
import { RESET_SUBJECT, type TestUser } from './fixtures.ts';
import { linkIn, waitForMail } from './mail-store.ts';

export const PORTAL_VERSION = 'v2.20.2';

/** The query the guard adds when it sends a signed-out visitor to /login. */
export function loginRedirectUrl(path: string): RegExp {
  const escaped = encodeURIComponent(path).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`/login\\?redirect=${escaped}$`);
}

/** Signs in through the /login form the page is on. */
export async function submitSignIn(page: Page, { email, password }: TestUser) {
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Fills the /setup-organization form and submits it, which opens the legal dialog. */
export async function submitOrganizationForm(page: Page, fields: InitialSetupForm, countryName: string) {
  await page.getByLabel('Organization name').fill(fields.organization);
  await page.getByLabel('First name').fill(fields.firstName);
  await page.getByLabel('Last name').fill(fields.lastName);
  const country = page.getByRole('combobox', { name: 'Country' });
  await country.fill(countryName);
  await page.getByRole('option', { name: countryName, exact: true }).click();
  await expect(country).toHaveValue(countryName);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
}

/** The left navigation of the signed-in layout. */
export function mainNavigation(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Main navigation' });
}

/** The signed-in layout: navigation (opened first on narrow screens) with the organisation and the version label. */
export async function expectSignedInLayout(page: Page, organization: string) {
  const toggle = page.getByRole('button', { name: 'Toggle navigation' });
  // The button says whether the navigation is open once the page knows the window's width.
  await expect(toggle).toHaveAttribute('aria-expanded', /^(true|false)$/);
  if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
  const navigation = mainNavigation(page);
  await expect(navigation.getByText(organization, { exact: true })).toBeInViewport();
  await expect(navigation.getByText(PORTAL_VERSION, { exact: true })).toBeInViewport();
}

/** Opens the user menu in the top bar and chooses sign out. */
export async function signOutThroughUserMenu(page: Page) {
  await page.getByRole('button', { name: /^Account menu of / }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
}

/** On /password/reset: asks for the mail; answers when it was asked, for waitForMail. */
export async function requestPasswordReset(page: Page, email: string): Promise<number> {
  await page.getByLabel('Email', { exact: true }).fill(email);
  const requestedAt = Date.now();
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText(email)).toBeVisible();
  return requestedAt;
}

/** Opens the /password/renew link of the reset mail and saves the new password; the page lands on /login. */
export async function renewPasswordFromMail(page: Page, email: string, since: number, newPassword: string) {
  const link = linkIn(await waitForMail(email, RESET_SUBJECT, { since }), '/password/renew');
  expect(link.searchParams.get('email')).toBe(email);
  await page.goto(link.toString());
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm new password').fill(newPassword);
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page).toHaveURL(/\/login$/);
}
