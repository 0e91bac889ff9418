import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../../../tools/chromium.ts';
import { seedApplications, signedInOwner, withFreshPortal } from '../bench-support.ts';
await withFreshPortal(undefined, async ({ database, base }) => {
  const email = 'shot@acme.io';
  const cookie = await signedInOwner(base, email);
  await seedApplications(database, email, 30);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  for (const width of [1280, 390]) {
    const context = await browser.newContext({ extraHTTPHeaders: { Cookie: cookie }, viewport: { width, height: 800 } });
    const tab = await context.newPage();
    await tab.goto(`${base}/apps/asc`);
    await tab.locator('html[data-hydrated]').waitFor({ state: 'attached' });
    await tab.waitForTimeout(500);
    await tab.screenshot({ path: `/tmp/shot-${width}-top.png` });
    await tab.screenshot({ path: `/tmp/shot-${width}-full.png`, fullPage: true });
    await context.close();
  }
  await browser.close();
}, { WEB_DIST_DIR: '/work/main/apps/web/dist' });
