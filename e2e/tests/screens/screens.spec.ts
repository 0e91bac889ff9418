import path from 'node:path';
import type { Page } from '@playwright/test';
import { E2E_DIR } from '../../harness/harness-state.ts';
import { Applications } from '../../support/applications.ts';
import { ACME, expect, test } from '../../support/fixtures.ts';
import { expectSignedInLayout, submitOrganizationForm } from '../../support/ui.ts';

/** Screens for a person to look at: e2e/test-results/screenshots/<page>-<width>.png */
const SCREENSHOT_DIR = path.join(E2E_DIR, 'test-results', 'screenshots');
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

async function capture(page: Page, name: string, width: number) {
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${width}.png`), fullPage: true, animations: 'disabled' });
}

for (const viewport of VIEWPORTS) {
  test(`key screens at ${viewport.width} px`, async ({ page, users, baseURL }) => {
    await page.setViewportSize(viewport);

    await page.goto('/login');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await capture(page, 'login', viewport.width);

    await page.goto('/signup');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await capture(page, 'signup', viewport.width);
    await page.getByLabel('Corporate email').fill('someone@gmail.com');
    await page.getByLabel('Password', { exact: true }).fill('weakpass');
    await page.getByLabel('Corporate email').blur();
    await expect(page.getByText('Please sign up with your corporate email.', { exact: false })).toBeVisible();
    await capture(page, 'signup-errors', viewport.width);

    await users.signedIn({ label: `screens-setup-${viewport.width}`, organization: null });
    await page.goto('/setup-organization');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await capture(page, 'setup-organization', viewport.width);
    await submitOrganizationForm(page, ACME, 'Singapore');
    // Captured once the opening transition has ended.
    await expect(page.getByRole('dialog')).toHaveCSS('opacity', '1');
    await capture(page, 'setup-organization-legal-dialog', viewport.width);

    await users.signedIn({ label: `screens-apps-${viewport.width}` });
    await page.goto('/apps/asc');
    // The navigation starts collapsed below the 800 px breakpoint and open above it.
    const narrow = viewport.width < 800;
    await expect(page.getByRole('button', { name: 'Toggle navigation' })).toHaveAttribute('aria-expanded', String(!narrow));
    await capture(page, 'apps', viewport.width);
    if (narrow) {
      await expectSignedInLayout(page, ACME.organization);
      await capture(page, 'apps-navigation-open', viewport.width);
    } else {
      await expectSignedInLayout(page, ACME.organization);
    }

    const apps = new Applications(page.request, baseURL!);
    await apps.create({ name: 'Nebula Chat', plan: 'basic', region: 'EU' });
    await apps.create({ name: 'Comet Live', plan: 'max', region: 'US' });
    await apps.waitUntilAllActive(2);
    await page.goto('/apps/asc');
    await expect(page.getByRole('article')).toHaveCount(2);
    await capture(page, 'apps-list', viewport.width);
    await page.getByRole('combobox', { name: 'Plan', exact: true }).click();
    await expect(page.getByRole('option', { name: 'Max', exact: true })).toBeVisible();
    await capture(page, 'apps-list-filter-open', viewport.width);
  });
}
