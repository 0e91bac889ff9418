import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { REPO_ROOT } from '../../harness/harness-state.ts';
import { expect, test } from '../../support/fixtures.ts';

const ASSETS = path.join(REPO_ROOT, 'apps/web/dist/assets');

/** The built chunk of the /signup route, with its precompressed copies. */
function signupChunkFiles(): string[] {
  const chunk = fs.readdirSync(ASSETS).find((name) => /^signup-[\w-]+\.js$/.test(name));
  if (!chunk) throw new Error('no signup chunk in the build');
  return [chunk, `${chunk}.br`, `${chunk}.gz`].map((name) => path.join(ASSETS, name)).filter((file) => fs.existsSync(file));
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
  test('reloads once when a route chunk is gone, then shows the error page when it is still gone', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: /sign in/i }).first()).toBeVisible();
    const loads = countLoads(page);
    const moved = signupChunkFiles().map((file) => ({ file, aside: `${file}.removed` }));
    for (const { file, aside } of moved) fs.renameSync(file, aside);
    try {
      await page.getByRole('link', { name: 'Create an account' }).click();
      await expect(page.getByText('Sorry, something went wrong.')).toBeVisible({ timeout: 20_000 });
      await expect(page).toHaveURL(/\/signup$/);
      expect(loads.count).toBe(1);
    } finally {
      for (const { file, aside } of moved) fs.renameSync(aside, file);
    }
  });

  test('reloads once and shows the page when the reload finds the chunk', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: /sign in/i }).first()).toBeVisible();
    const loads = countLoads(page);
    // The first request for the chunk finds it gone, as after a release; the reload finds it.
    let refused = 0;
    await page.route(/\/assets\/signup-[\w-]+\.js$/, async (route) => {
      if (refused === 0) {
        refused += 1;
        return route.fulfill({ status: 404, body: 'gone' });
      }
      return route.continue();
    });
    await page.getByRole('link', { name: 'Create an account' }).click();
    await expect(page.getByRole('button', { name: 'Sign up', exact: true })).toBeVisible({ timeout: 20_000 });
    await expect(page).toHaveURL(/\/signup$/);
    expect(refused).toBe(1);
    expect(loads.count).toBe(1);
    await expect(page.getByText('Sorry, something went wrong.')).toHaveCount(0);
  });
});
