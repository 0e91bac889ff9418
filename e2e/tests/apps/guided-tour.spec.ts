import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { AccountSchema } from '@portal/contracts';
import { Applications } from '../../support/applications.ts';
import { expectNoSeriousA11yViolations } from '../../support/axe.ts';
import { ACME, expect, test } from '../../support/fixtures.ts';
import { joinAs, Members } from '../../support/members.ts';
import { SCREENSHOT_DIR } from '../../support/screenshots.ts';
import { signOutThroughUserMenu, submitOrganizationForm, submitSignIn } from '../../support/ui.ts';

const TOUR_PATH = '/api/v1/accounts/me/tour';
const NARROW = { width: 390, height: 844 };
const WIDE = { width: 1280, height: 800 };

/** The tour's step on screen: one dialog, named by the step's title. */
function tourStep(page: Page): Locator {
  return page.locator('.driver-popover[role="dialog"]');
}

function tourOffer(page: Page): Locator {
  return page.getByRole('region', { name: 'New here? Take a quick tour' });
}

async function expectStep(page: Page, title: string, progress: string) {
  const step = tourStep(page);
  await expect(step).toHaveCount(1);
  await expect(step).toHaveAccessibleName(title);
  await expect(step.getByText(progress, { exact: true })).toBeVisible();
  // Enter goes on: the step's own main button has the focus.
  await expect(step.getByRole('button', { name: /^(Next|Finish)$/ })).toBeFocused();
}

/** The titles of the steps, walked with the arrow key from the one on screen to the last. */
async function walkWithArrows(page: Page): Promise<string[]> {
  const titles: string[] = [];
  const step = tourStep(page);
  for (;;) {
    await expect(step.getByRole('button', { name: /^(Next|Finish)$/ })).toBeFocused();
    const title = (await step.locator('.driver-popover-title').textContent()) ?? '';
    titles.push(title);
    if ((await step.getByRole('button', { name: 'Finish' }).count()) > 0) return titles;
    await page.keyboard.press('ArrowRight');
    await expect(step.locator('.driver-popover-title')).not.toHaveText(title);
  }
}

/** A server-rendered page (the list) ignores keys and clicks until its script has taken it over. */
async function untilTakenOver(page: Page) {
  await expect(page.locator('#root')).not.toHaveAttribute('inert');
}

async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `guided-tour-${name}-${page.viewportSize()?.width}.png`) });
}

/** The organisation setup form and its legal dialog, accepted. */
async function setUpThroughForm(page: Page) {
  await page.goto('/setup-organization');
  await submitOrganizationForm(page, ACME, 'Singapore');
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('checkbox', { name: 'I have read and accept the Privacy Policy' }).check();
  await dialog.getByRole('button', { name: 'Next', exact: true }).click();
  await dialog.getByRole('checkbox', { name: 'I have read and accept the Terms and Conditions' }).check();
  await dialog.getByRole('button', { name: 'Confirm', exact: true }).click();
}

test.describe('guided tour', () => {
  test('a new owner is offered the tour after setup, walks it with the keyboard and finishes; another sign-in does not offer it again, /open-appcues and Help start it', async ({
    page,
    users,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(WIDE);
    const owner = await users.signedIn({ label: 'tour-owner', organization: null });

    await test.step('the offer shows on the application list once the organisation is set up', async () => {
      await setUpThroughForm(page);
      await expect(page).toHaveURL(/\/apps\/asc$/);
      await expect(tourOffer(page)).toBeVisible();
      await expect(tourStep(page)).toHaveCount(0);
      await expectNoSeriousA11yViolations(page, 'application list with the tour offer');
      await screenshot(page, 'offer');
    });

    await test.step('Enter starts it; Enter, the arrows and Tab move within the steps the owner can see', async () => {
      await tourOffer(page).getByRole('button', { name: 'Take the tour' }).focus();
      await page.keyboard.press('Enter');
      // No applications yet: the steps about cards, search and filters are left out.
      await expectStep(page, 'Welcome to your developer portal', 'Step 1 of 5');
      await expect(tourStep(page).getByRole('button', { name: 'Back' })).toHaveCount(0);
      await expect(tourOffer(page)).toHaveCount(0);
      await screenshot(page, 'welcome');

      await page.keyboard.press('Enter');
      await expectStep(page, 'Create an application', 'Step 2 of 5');
      await expect(page.getByRole('link', { name: 'Create application' })).toHaveClass(/driver-active-element/);
      await expectNoSeriousA11yViolations(page, 'a step of the guided tour');
      await screenshot(page, 'create-application');

      await page.keyboard.press('ArrowRight');
      await expectStep(page, 'Billing', 'Step 3 of 5');
      await expect(page.getByRole('link', { name: 'Billing', exact: true })).toHaveClass(/driver-active-element/);
      await page.keyboard.press('ArrowLeft');
      await expectStep(page, 'Create an application', 'Step 2 of 5');
      await page.keyboard.press('ArrowRight');
      await expectStep(page, 'Billing', 'Step 3 of 5');

      // Tab and Shift+Tab go round the step's buttons and stay in it.
      for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab']) {
        await page.keyboard.press(key);
        await expect(tourStep(page).locator(':focus')).toHaveCount(1);
      }
      await tourStep(page).getByRole('button', { name: 'Next' }).focus();

      await page.keyboard.press('Enter');
      await expectStep(page, 'Manage members', 'Step 4 of 5');
      await page.keyboard.press('Enter');
      await expectStep(page, 'Your account', 'Step 5 of 5');
      await expect(page.getByRole('button', { name: /^Account menu of / })).toBeVisible();
      await screenshot(page, 'user-menu');

      const saved = page.waitForResponse((r) => r.url().endsWith(TOUR_PATH) && r.request().method() === 'PUT');
      await page.keyboard.press('Enter');
      expect((await saved).status()).toBe(200);
      expect((await saved).request().postDataJSON()).toEqual({ outcome: 'finished' });
      await expect(tourStep(page)).toHaveCount(0);
      await expect(tourOffer(page)).toHaveCount(0);
      // The highlighted link is left as it was.
      await expect(page.getByRole('link', { name: 'Create application' })).not.toHaveClass(/driver-active-element/);
    });

    await test.step('signing in anew does not offer it again', async () => {
      await signOutThroughUserMenu(page);
      await expect(page.getByRole('heading', { name: 'You are logged out.' })).toBeVisible();
      await expect(page).toHaveURL(/\/login$/);
      await submitSignIn(page, owner);
      await expect(page).toHaveURL(/\/apps\/asc$/);
      await expect(page.getByRole('link', { name: 'Create application' })).toBeVisible();
      await expect(tourOffer(page)).toHaveCount(0);
      const me = AccountSchema.parse(await (await page.request.get('/api/v1/accounts/me')).json());
      expect(me.offerTour).toBe(false);
    });

    await test.step('/open-appcues starts it on the application list, in its place; Esc closes it', async () => {
      await page.goto('/open-appcues');
      await expect(page).toHaveURL(/\/apps\/asc$/);
      await expectStep(page, 'Welcome to your developer portal', 'Step 1 of 5');
      await page.keyboard.press('Escape');
      await expect(tourStep(page)).toHaveCount(0);
      // A reload does not start it again, and nothing is offered.
      await page.reload();
      await untilTakenOver(page);
      await expect(page.getByRole('link', { name: 'Create application' })).toBeVisible();
      await expect(tourStep(page)).toHaveCount(0);
      await expect(tourOffer(page)).toHaveCount(0);
    });

    await test.step('Help, Tutorial guide starts it too', async () => {
      const tutorial = page.getByRole('link', { name: 'Tutorial guide' });
      await tutorial.focus();
      await page.keyboard.press('Enter');
      await expectStep(page, 'Welcome to your developer portal', 'Step 1 of 5');
      await tourStep(page).getByRole('button', { name: 'Close the tour' }).click();
      await expect(tourStep(page)).toHaveCount(0);
      await expect(page).toHaveURL(/\/apps\/asc$/);
    });

    await test.step('at 390 px the tour opens the navigation for its entries and closes it after', async () => {
      await page.setViewportSize(NARROW);
      const toggle = page.getByRole('button', { name: 'Toggle navigation' });
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await page.goto('/open-appcues');
      await expectStep(page, 'Welcome to your developer portal', 'Step 1 of 5');
      await screenshot(page, 'welcome');
      await page.keyboard.press('Enter');
      await expectStep(page, 'Create an application', 'Step 2 of 5');
      await screenshot(page, 'create-application');
      await page.keyboard.press('Enter');
      await expectStep(page, 'Billing', 'Step 3 of 5');
      await expect(toggle).toHaveAttribute('aria-expanded', 'true');
      await expect(page.getByRole('link', { name: 'Billing', exact: true })).toBeInViewport();
      await expect(tourStep(page)).toBeInViewport({ ratio: 1 });
      await screenshot(page, 'billing');
      await page.keyboard.press('Enter');
      await expectStep(page, 'Manage members', 'Step 4 of 5');
      await page.keyboard.press('Enter');
      await expectStep(page, 'Your account', 'Step 5 of 5');
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await expect(tourStep(page)).toBeInViewport({ ratio: 1 });
      await screenshot(page, 'user-menu');
      await page.keyboard.press('ArrowLeft');
      await expectStep(page, 'Manage members', 'Step 4 of 5');
      await expect(toggle).toHaveAttribute('aria-expanded', 'true');
      await page.keyboard.press('Escape');
      await expect(tourStep(page)).toHaveCount(0);
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    });
  });

  test('an owner who says no thanks is not offered the tour again', async ({ page, users }) => {
    await users.signedIn({ label: 'tour-no-thanks' });
    await page.goto('/apps/asc');
    const saved = page.waitForResponse((r) => r.url().endsWith(TOUR_PATH) && r.request().method() === 'PUT');
    await tourOffer(page).getByRole('button', { name: 'No thanks' }).click();
    expect((await saved).request().postDataJSON()).toEqual({ outcome: 'skipped' });
    await expect(tourOffer(page)).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole('link', { name: 'Create application' })).toBeVisible();
    await expect(tourOffer(page)).toHaveCount(0);
  });

  test("a developer's tour covers the cards and leaves out Billing and Manage members", async ({
    page,
    users,
    baseURL,
    browser,
  }) => {
    test.setTimeout(120_000);
    await users.signedIn({ label: 'tour-team-owner' });
    const apps = new Applications(page.request, baseURL!);
    await apps.create({ name: 'Orbit Chat', plan: 'basic', region: 'SG' });
    await apps.waitUntilAllActive(1);
    const developer = await joinAs(browser, baseURL!, new Members(page.request, baseURL!), 'portal.developer');
    try {
      const devPage = developer.page;
      await devPage.setViewportSize(NARROW);
      await devPage.goto('/apps/asc');
      await expect(devPage.getByRole('article', { name: 'Orbit Chat' })).toBeVisible();
      // Only the organisation's creator is offered the tour.
      await expect(tourOffer(devPage)).toHaveCount(0);

      await devPage.goto('/open-appcues');
      await expectStep(devPage, 'Welcome to your developer portal', 'Step 1 of 7');
      expect(await walkWithArrows(devPage)).toEqual([
        'Welcome to your developer portal',
        'Your applications',
        'Search and filters',
        'Create an application',
        'Go to console',
        'Edit an application',
        'Your account',
      ]);
      // The steps about the card point at the first card's console button and menu.
      await devPage.keyboard.press('ArrowLeft');
      await expectStep(devPage, 'Edit an application', 'Step 6 of 7');
      await expect(devPage.getByRole('button', { name: 'Actions for Orbit Chat' })).toBeInViewport();
      await screenshot(devPage, 'developer-edit-menu');
      await devPage.keyboard.press('ArrowLeft');
      await expectStep(devPage, 'Go to console', 'Step 5 of 7');
      await expect(devPage.getByRole('button', { name: 'Go to console' })).toBeInViewport();
      await devPage.keyboard.press('Escape');
      await expect(tourStep(devPage)).toHaveCount(0);
      // The menu button keeps what it says about itself after the tour pointed at it.
      await expect(devPage.getByRole('button', { name: 'Actions for Orbit Chat' })).toHaveAttribute(
        'aria-haspopup',
        'menu',
      );
    } finally {
      await developer.context.close();
    }
  });

  test('the server refuses the tour endpoint without a session, and names the field of a bad outcome', async ({
    page,
    playwright,
    baseURL,
    users,
  }) => {
    const anonymous = await playwright.request.newContext({ baseURL });
    try {
      const refused = await anonymous.put(TOUR_PATH, { data: { outcome: 'finished' }, headers: { origin: baseURL! } });
      expect(refused.status()).toBe(401);
      expect(await refused.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    } finally {
      await anonymous.dispose();
    }

    await users.signedIn({ label: 'tour-bad-outcome' });
    const bad = await page.request.put(TOUR_PATH, { data: { outcome: 'maybe' }, headers: { origin: baseURL! } });
    expect(bad.status()).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringContaining('outcome') });
  });
});
