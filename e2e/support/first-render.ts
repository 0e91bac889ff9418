import type { PublicConfig } from '@portal/contracts';
import { expect, type Page } from '@playwright/test';

/** Waits until the browser has taken a server-rendered page over: its scripts have run and it has nothing left to load. */
export async function untilTakenOver(page: Page) {
  await expect.poll(() => page.evaluate(() => document.readyState)).toBe('complete');
  await page.waitForLoadState('networkidle');
}

/**
 * Opens a server-rendered page (decision 026) and answers the public configuration it came with,
 * once the browser has taken the page over.
 */
export async function openServerRenderedPage(page: Page, url: string): Promise<PublicConfig> {
  await page.goto(url);
  const data = await page.locator('#portal-first-render').textContent();
  if (!data) throw new Error(`${url} came without the data of a server render`);
  await untilTakenOver(page);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  return (JSON.parse(data) as { config: PublicConfig }).config;
}
