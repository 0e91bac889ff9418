import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { E2E_DIR } from '../harness/harness-state.ts';

/** Screens for a person to look at: e2e/test-results/screenshots/<name>-<width>.png */
export const SCREENSHOT_DIR = path.join(E2E_DIR, 'test-results', 'screenshots');
export const SCREENSHOT_SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

/**
 * Full-page screenshots of the page at 1280 and 390 px, each checked first not to scroll sideways;
 * the window gets its size back afterwards. With `overlay` (a drawer or a dialog, fixed to the
 * window), the window is captured instead, and the overlay is checked not to scroll sideways either.
 */
export async function screenshotsAtWidths(page: Page, name: string, { overlay }: { overlay?: Locator } = {}) {
  const original = page.viewportSize();
  for (const size of SCREENSHOT_SIZES) {
    await page.setViewportSize(size);
    // The navigation slides in or out when the width crosses its breakpoint; then nothing is wider
    // than the window.
    await expect
      .poll(
        () =>
          page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
        { message: `${name} at ${size.width} px scrolls sideways` },
      )
      .toBeLessThanOrEqual(0);
    if (overlay)
      await expect
        .poll(() => overlay.evaluate((element) => element.scrollWidth - element.clientWidth), {
          message: `${name}'s overlay at ${size.width} px scrolls sideways`,
        })
        .toBeLessThanOrEqual(0);
    await page.screenshot({
      path: path.join(SCREENSHOT_DIR, `${name}-${size.width}.png`),
      fullPage: !overlay,
      animations: 'disabled',
    });
  }
  if (original) await page.setViewportSize(original);
}
