import { ACME, expect, test } from '../../support/fixtures.ts';
import { expectNoSeriousA11yViolations } from '../../support/axe.ts';
import { expectSignedInLayout, submitOrganizationForm } from '../../support/ui.ts';

/** Public pages as a signed-out visitor reaches them; each one shows a top-level heading when ready. */
const PUBLIC_PAGES = [
  '/login',
  '/signup',
  '/sign-in-sso',
  '/verify-email?email=x%40acme.io',
  '/confirm-user',
  '/email-expired',
  '/password/reset',
  '/password/renew?email=a%40acme.io&code=123456',
  '/invitation-expired',
  '/invitation-invalid',
  '/error',
  '/forbidden',
  '/no/such/page',
];

test.describe('accessibility of the public pages (WCAG 2 A and AA)', () => {
  for (const path of PUBLIC_PAGES) {
    test(path, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectNoSeriousA11yViolations(page, path);
    });
  }

  test('/logout', async ({ page }) => {
    // The page signs out after one second and leaves once the call settles: hold the call while axe
    // reads it. The handler itself waits, so each call is continued exactly once by its own handler.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/auth/sign-out', async (route) => {
      await released;
      await route.continue();
    });
    await page.goto('/logout');
    await expect(page.getByRole('heading', { name: 'You are logged out.' })).toBeVisible();
    await expectNoSeriousA11yViolations(page, '/logout');
    release();
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe('accessibility of the signed-in pages (WCAG 2 A and AA)', () => {
  test('/apps/asc in the signed-in layout', async ({ page, users }) => {
    await users.signedIn({ label: 'a11y-apps' });
    await page.goto('/apps/asc');
    await expectSignedInLayout(page, ACME.organization);
    await expectNoSeriousA11yViolations(page, '/apps/asc');
  });

  test('/setup-organization and its legal dialog', async ({ page, users }) => {
    await users.signedIn({ label: 'a11y-setup', organization: null });
    await page.goto('/setup-organization');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectNoSeriousA11yViolations(page, '/setup-organization');

    await submitOrganizationForm(page, ACME, 'Singapore');
    // Checked once the opening transition has ended, so colours are read at full opacity.
    await expect(page.getByRole('dialog')).toHaveCSS('opacity', '1');
    await expectNoSeriousA11yViolations(page, '/setup-organization legal dialog');
  });
});
