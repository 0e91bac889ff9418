import path from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { Applications } from '../../support/applications.ts';
import { expect, test, type Users } from '../../support/fixtures.ts';
import { untilTakenOver } from '../../support/first-render.ts';
import { SCREENSHOT_DIR } from '../../support/screenshots.ts';
import { loginRedirectUrl } from '../../support/ui.ts';

/**
 * The pages people arrive at come rendered by the server (decision 026): they are on screen with
 * scripts turned off, and the browser takes them over without a hydration error, without asking
 * again for what the page brought, and with everything working as before.
 */

const SERVER_RENDERED_PAGES = ['/login', '/signup'];

/** What the page said in the console and which portal API calls it made, from now on. */
function watch(page: Page) {
  const problems: string[] = [];
  const apiCalls: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('request', (request) => {
    const { pathname, search } = new URL(request.url());
    if (pathname.startsWith('/api/')) apiCalls.push(`${pathname}${search}`);
  });
  return { problems, apiCalls };
}

/** A context of the same browser without JavaScript, holding the cookies of `from` (a session, say). */
async function withoutScripts(browser: Browser, from: BrowserContext | undefined, width = 1280) {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width, height: 800 } });
  if (from) await context.addCookies(await from.cookies());
  return context;
}

async function ownerWithApplications(users: Users, page: Page, baseURL: string, names: string[]) {
  await users.signedIn({ label: 'server-render' });
  const applications = new Applications(page.request, baseURL);
  for (const name of names) await applications.create({ name, plan: 'basic', region: 'SG' });
}

test.describe('server-rendered pages', () => {
  test('the sign-in and sign-up pages are on screen with scripts off, and the browser takes them over quietly', async ({
    browser,
    page,
  }) => {
    const noScripts = await withoutScripts(browser, undefined);
    const still = await noScripts.newPage();
    await still.goto('/login');
    await expect(still.getByRole('heading', { name: 'Sign in to your account' })).toBeVisible();
    await expect(still).toHaveTitle('Sign in | Developer Portal');
    // Before any script the form takes typing, which the page keeps once taken over (decision 045).
    await expect(still.locator('#root')).not.toHaveAttribute('inert');
    await expect(still.getByLabel('Email')).toBeEditable();
    await still.goto('/signup');
    await expect(
      still.getByText('Use your work address; personal email providers are not accepted.'),
    ).toBeVisible();
    await noScripts.close();

    for (const url of SERVER_RENDERED_PAGES) {
      const seen = watch(page);
      await page.goto(url);
      await untilTakenOver(page);
      expect(seen.problems, url).toEqual([]);
      // The page came with the account and configuration: nothing asks for them again.
      expect(seen.apiCalls, url).toEqual([]);
    }

    // Taken over, the form works as before, up to the server's refusal.
    await page.goto('/login');
    await untilTakenOver(page);
    await expect(page.locator('#root')).not.toHaveAttribute('inert');
    await expect(page.getByLabel('Email')).toBeEditable();
    await page.getByLabel('Email').fill('nobody@acme.io');
    await page.getByLabel('Password', { exact: true }).fill('Wr0ng!Password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Incorrect username or password.')).toBeVisible();
  });

  test("a member's application list is on screen with scripts off, and taken over without asking for it again", async ({
    browser,
    page,
    users,
    baseURL,
  }) => {
    // A name that would break out of the page's data if it were written as it is.
    const hostile = '</script><img src=x onerror="window.__hostile=1">';
    await ownerWithApplications(users, page, baseURL!, ['Chat for Acme', hostile]);

    for (const width of [1280, 390]) {
      const noScripts = await withoutScripts(browser, page.context(), width);
      const still = await noScripts.newPage();
      await still.goto('/apps/asc');
      await expect(still.getByRole('heading', { name: 'Applications' })).toBeVisible();
      await expect(still.getByRole('heading', { name: 'Chat for Acme' })).toBeVisible();
      await expect(still.getByRole('heading', { name: hostile })).toBeVisible();
      // The frame is laid out for the width by its stylesheet alone: navigation beside the page on a
      // wide window, closed on a phone.
      const navigation = still.getByRole('navigation', { name: 'Main navigation' });
      if (width === 1280) await expect(navigation.getByRole('link', { name: 'Apps' })).toBeVisible();
      else await expect(navigation.getByRole('link', { name: 'Apps' })).toBeHidden();
      await still.screenshot({ path: path.join(SCREENSHOT_DIR, `server-rendered-apps-${width}.png`) });
      await noScripts.close();
    }

    const seen = watch(page);
    await page.goto('/apps/asc');
    await untilTakenOver(page);
    expect(seen.problems).toEqual([]);
    expect(await page.evaluate(() => (window as { __hostile?: number }).__hostile)).toBeUndefined();
    // The account, the configuration, the list and the month's usage alert notices came with the
    // page: nothing is asked for again once it is taken over.
    await page.waitForLoadState('networkidle');
    expect(seen.apiCalls).toEqual([]);
    await expect(page.getByRole('heading', { name: hostile })).toBeVisible();

    // Taken over, the page works as before: search narrows the grid, the menu opens.
    await page.getByLabel('Search applications').fill('Chat');
    await expect(page.getByText('1 result')).toBeVisible();
    await expect(page.getByRole('heading', { name: hostile })).toBeHidden();
  });

  test('dates are written in the browser’s own time zone once the page is taken over', async ({
    browser,
    page,
    users,
    baseURL,
  }) => {
    await ownerWithApplications(users, page, baseURL!, ['Zoned app']);
    const [created] = (await new Applications(page.request, baseURL!).list()).data;
    const createdAt = new Date(created!.createdAt);
    // A zone where the application was made on another date than in UTC, which the server writes:
    // UTC+14 is already the next day from 10:00 UTC, UTC−11 still the day before until 11:00 UTC.
    const timeZone = createdAt.getUTCHours() >= 10 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
    const dateIn = (zone: string) => {
      const parts = new Intl.DateTimeFormat('en-US', {
        day: '2-digit',
        month: 'short',
        year: 'numeric',
        timeZone: zone,
      }).formatToParts(createdAt);
      const part = (type: string) => parts.find((p) => p.type === type)?.value;
      return `${part('day')} ${part('month')} ${part('year')}`;
    };
    expect(dateIn(timeZone)).not.toBe(dateIn('UTC'));

    const context = await browser.newContext({ timezoneId: timeZone });
    await context.addCookies(await page.context().cookies());
    const zoned = await context.newPage();
    const seen = watch(zoned);
    await zoned.goto('/apps/asc');
    await untilTakenOver(zoned);
    await expect(zoned.getByText(dateIn(timeZone))).toBeVisible();
    await expect(zoned.getByText(dateIn('UTC'))).toHaveCount(0);
    expect(seen.problems).toEqual([]);
    await context.close();
  });

  test('a signed-in page is not kept by any cache, and the guard still sends people where they belong', async ({
    page,
    users,
  }) => {
    const answer = await page.request.get('/login');
    expect(answer.headers()['cache-control']).toBe('no-cache');

    await users.signedIn({ label: 'server-render-guard' });
    const signedIn = await page.request.get('/apps/asc');
    expect(signedIn.headers()['cache-control']).toBe('private, no-store');
    expect(await signedIn.text()).toContain('portal-first-render');

    // Signed in, /login leads to the applications; signed out, the list leads to /login.
    await page.goto('/login');
    await expect(page).toHaveURL(/\/apps\/asc$/);
    await page.context().clearCookies();
    await page.goto('/apps/asc');
    await expect(page).toHaveURL(loginRedirectUrl('/apps/asc'));
    await expect(page.getByRole('heading', { name: 'Sign in to your account' })).toBeVisible();
  });
});
