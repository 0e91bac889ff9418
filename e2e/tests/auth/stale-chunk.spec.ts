import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { REPO_ROOT } from '../../harness/harness-state.ts';
import { expect, test } from '../../support/fixtures.ts';

const ASSETS = path.join(REPO_ROOT, 'apps/web/dist/assets');

/**
 * The built chunk of the /manage-members route, with its precompressed copies. (The public pages
 * come with the first script; the signed-in pages are the ones loaded as their own chunks.)
 */
function manageMembersChunkFiles(): string[] {
  const chunk = fs.readdirSync(ASSETS).find((name) => /^manage-members-[\w-]+\.js$/.test(name));
  if (!chunk) throw new Error('no manage-members chunk in the build');
  return [chunk, `${chunk}.br`, `${chunk}.gz`]
    .map((name) => path.join(ASSETS, name))
    .filter((file) => fs.existsSync(file));
}

/**
 * A client-side navigation to /manage-members, as the history's back and forward buttons make: the
 * running page asks for the route's chunk, which the running build names.
 */
async function openManageMembers(page: Page) {
  await page.evaluate(() => {
    window.history.pushState(null, '', '/manage-members');
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
}

/** Counts the page's full loads, so a reload shows. */
function countLoads(page: Page) {
  const loads = { count: 0 };
  page.on('load', () => {
    loads.count += 1;
  });
  return loads;
}

test.describe('a page running an earlier build', () => {
  test('reloads once when a route chunk is gone, then shows the error page when it is still gone', async ({
    page,
    users,
  }) => {
    await users.signedIn();
    await page.goto('/apps/asc');
    await expect(page.getByRole('heading', { name: 'Applications' }).first()).toBeVisible();
    const loads = countLoads(page);
    const moved = manageMembersChunkFiles().map((file) => ({ file, aside: `${file}.removed` }));
    for (const { file, aside } of moved) fs.renameSync(file, aside);
    try {
      await openManageMembers(page);
      await expect(page.getByText('Sorry, something went wrong.')).toBeVisible({ timeout: 20_000 });
      await expect(page).toHaveURL(/\/manage-members$/);
      expect(loads.count).toBe(1);
    } finally {
      for (const { file, aside } of moved) fs.renameSync(aside, file);
    }
  });

  test('reloads once and shows the page when the reload finds the chunk', async ({ page, users }) => {
    await users.signedIn();
    await page.goto('/apps/asc');
    await expect(page.getByRole('heading', { name: 'Applications' }).first()).toBeVisible();
    const loads = countLoads(page);
    // The running page finds the chunk gone, as after a release (its preload and its import alike);
    // the reloaded page finds it.
    let refused = 0;
    await page.route(/\/assets\/manage-members-[\w-]+\.js$/, async (route) => {
      if (loads.count === 0) {
        refused += 1;
        return route.fulfill({ status: 404, body: 'gone' });
      }
      return route.continue();
    });
    await openManageMembers(page);
    await expect(page.getByRole('heading', { name: 'Manage members' }).first()).toBeVisible({
      timeout: 20_000,
    });
    await expect(page).toHaveURL(/\/manage-members$/);
    expect(refused).toBeGreaterThan(0);
    expect(loads.count).toBe(1);
    await expect(page.getByText('Sorry, something went wrong.')).toHaveCount(0);
  });
});
