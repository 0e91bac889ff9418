import fs from 'node:fs/promises';
import type { Page } from '@playwright/test';
import type { Account } from '@portal/contracts';
import { expectNoSeriousA11yViolations } from '../../support/axe.ts';
import { expect, test } from '../../support/fixtures.ts';
import { confirmDialog, joinAs, Members, rowOf } from '../../support/members.ts';
import { screenshotsAtWidths } from '../../support/screenshots.ts';
import { mainNavigation } from '../../support/ui.ts';

/** The signed-in member's own display name, changed through the API: one audit log entry each. */
async function renameSelf(page: Page, baseURL: string, names: string[]) {
  const me = (await (await page.request.get('/api/v1/accounts/me')).json()) as Account;
  for (const displayName of names) {
    const renamed = await page.request.put(`/api/v1/members/${encodeURIComponent(me.memberId)}`, {
      data: { displayName },
      headers: { origin: baseURL },
    });
    expect(renamed.status(), await renamed.text()).toBe(200);
  }
}

test('the super-admin finds a role change in the audit log, in its detail and in the CSV export; an admin sees the log, a developer does not', async ({
  page,
  users,
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  await users.signedIn({ label: 'audit-owner' });
  const members = new Members(page.request, baseURL!);
  const developer = await joinAs(browser, baseURL!, members, 'portal.developer');
  const admin = await joinAs(browser, baseURL!, members, 'portal.admin');
  const developerEmail = developer.user.email;
  try {
    await test.step('a developer has no audit log entry in the menu and is refused the page', async () => {
      await developer.page.goto('/apps/asc');
      const navigation = mainNavigation(developer.page);
      await expect(navigation.getByRole('link', { name: 'Apps', exact: true })).toBeVisible();
      await expect(navigation.getByText('Audit log', { exact: true })).toHaveCount(0);
      await developer.page.goto('/audit-log');
      await expect(developer.page).toHaveURL(/\/forbidden$/);
    });

    await test.step('the super-admin makes the developer an analyst on the Edit member page', async () => {
      await page.goto('/manage-members');
      await rowOf(page, developerEmail).getByRole('button', { name: 'Edit', exact: true }).click();
      await expect(page).toHaveURL(/\/manage-members\/[^/]+$/);
      await page.getByRole('combobox', { name: 'Role', exact: true }).click();
      await page.getByRole('option', { name: 'Analyst', exact: true }).click();
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await confirmDialog(page, 'Save changes');
      await expect(page.getByText('The profile has been saved.')).toBeVisible();
    });

    // More entries, so the page is seen with a screenful of them.
    await renameSelf(
      page,
      baseURL!,
      Array.from({ length: 9 }, (_, index) => `Ada Lovelace ${index + 1}`),
    );

    await test.step('Organization settings → Audit log, filtered to the member group', async () => {
      await page.goto('/apps/asc');
      await mainNavigation(page).getByRole('link', { name: 'Audit log', exact: true }).click();
      await expect(page).toHaveURL(/\/audit-log$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
      const entries = page.getByRole('table', { name: 'Audit log entries' });
      await expect(entries.getByRole('button', { name: 'Member display name changed' })).toHaveCount(9);

      await page.getByRole('combobox', { name: 'Action', exact: true }).click();
      await page.getByRole('option', { name: 'Members', exact: true }).click();
      await expect(page).toHaveURL(/\/audit-log\?actionGroup=member$/);
      // The filter is in the address: a reload shows the same view.
      await page.reload();
      await expect(page.getByRole('combobox', { name: 'Action', exact: true })).toHaveValue('Members');
      await expect(rowOf(page, developerEmail).filter({ hasText: 'Member role changed' })).toHaveCount(1);
      await screenshotsAtWidths(page, 'audit-log');
      await expectNoSeriousA11yViolations(page, 'the audit log');
    });

    await test.step('the entry’s detail shows the role before and after', async () => {
      await rowOf(page, developerEmail)
        .filter({ hasText: 'Member role changed' })
        .getByRole('button', { name: 'Member role changed' })
        .click();
      const detail = page.getByRole('dialog', { name: 'Audit log entry' });
      await expect(detail).toBeVisible();
      await expect(detail.getByRole('row', { name: /^Target name/ })).toContainText(developerEmail);
      await expect(detail.getByRole('row', { name: /^Time/ })).toContainText('UTC');
      const role = detail
        .getByRole('table', { name: 'Changes' })
        .getByRole('row')
        .filter({ hasText: 'role' });
      await expect(role.getByRole('cell')).toHaveText(['role', 'portal.developer', 'portal.analyst']);
      await expect(detail).toHaveCSS('opacity', '1');
      await screenshotsAtWidths(page, 'audit-log-detail', { overlay: detail });
      await expectNoSeriousA11yViolations(page, 'an audit log entry');

      await detail.getByRole('button', { name: 'Show entries for this target' }).click();
      await expect(detail).toBeHidden();
      await expect(page).toHaveURL(/actionGroup=member&targetType=member&targetId=/);
      await expect(page.getByText(`Only entries for ${developerEmail} (Member)`)).toBeVisible();
      await expect(page.getByRole('button', { name: 'Member display name changed' })).toHaveCount(0);
    });

    await test.step('the CSV export holds the entry with both roles', async () => {
      const downloading = page.waitForEvent('download');
      await page.getByRole('link', { name: 'Export CSV' }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(/\.csv$/);
      const csv = await fs.readFile(await download.path(), 'utf8');
      const lines = csv.split('\r\n').filter(Boolean);
      const roleChanges = lines.filter((line) => line.includes('member.role_changed'));
      expect(roleChanges).toHaveLength(1);
      expect(roleChanges[0]).toContain(developerEmail);
      expect(roleChanges[0]).toContain('portal.developer');
      expect(roleChanges[0]).toContain('portal.analyst');
      // The filters went with it: only the developer's entries, none of the owner's renames.
      expect(lines.some((line) => line.includes('member.display_name_changed'))).toBe(false);
    });

    await test.step('an admin has the menu entry and sees the log', async () => {
      await admin.page.goto('/apps/asc');
      await mainNavigation(admin.page).getByRole('link', { name: 'Audit log', exact: true }).click();
      await expect(admin.page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
      await expect(rowOf(admin.page, developerEmail).filter({ hasText: 'Member role changed' })).toHaveCount(
        1,
      );
    });
  } finally {
    await developer.context.close();
    await admin.context.close();
  }
});
