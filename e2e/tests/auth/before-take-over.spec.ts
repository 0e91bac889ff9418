import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { REPO_ROOT } from '../../harness/harness-state.ts';
import { Applications } from '../../support/applications.ts';
import { expect, STRONG_PASSWORD, test, uniqueEmail } from '../../support/fixtures.ts';
import { SCREENSHOT_DIR } from '../../support/screenshots.ts';
import { mainNavigation } from '../../support/ui.ts';

/**
 * A server-rendered page (decision 026) answers a person before its script has taken it over
 * (decision 045): its head asks for every script the page needs at once, what is typed into its form
 * is in the form afterwards, and a link clicked then navigates.
 */

const WEB_DIST = path.join(REPO_ROOT, 'apps/web/dist');

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

/** The built scripts a page needs before it runs: the entry's and the given route modules', with their static imports. */
function scriptsOf(routes: string[]): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(WEB_DIST, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    ManifestChunk
  >;
  const moduleChunks = JSON.parse(
    fs.readFileSync(path.join(WEB_DIST, '.vite/module-chunks.json'), 'utf8'),
  ) as Record<string, string>;
  const keyOfFile = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, key]));
  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry)!;
  const keys = new Set<string>();
  const add = (key: string) => {
    if (keys.has(key)) return;
    keys.add(key);
    for (const imported of manifest[key]!.imports ?? []) add(imported);
  };
  add(entry);
  for (const route of routes) add(keyOfFile.get(moduleChunks[route]!)!);
  return [...keys].map((key) => `/${manifest[key]!.file}`);
}

/** The `<head>` of the document the server sends for `url` in this page's context. */
async function headOf(page: Page, url: string): Promise<string> {
  const answer = await page.request.get(url);
  expect(answer.status()).toBe(200);
  const html = await answer.text();
  expect(html, `${url} is server-rendered`).toContain('portal-first-render');
  return html.slice(0, html.indexOf('</head>'));
}

/** Which scripts a head loads or preloads. */
const requestedScripts = (head: string) =>
  new Set(
    [
      ...head.matchAll(/<(?:script type="module"[^>]* src|link rel="modulepreload"[^>]* href)="([^"]+)"/g),
    ].map((match) => match[1]),
  );

/**
 * Holds back every script the page asks for until `release` is called: the page is on screen as the
 * server wrote it, and nothing of the portal's JavaScript has run. `firstHeld` settles when the
 * browser has asked for one.
 */
async function holdScripts(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let firstHeld!: () => void;
  const held = new Promise<void>((resolve) => (firstHeld = resolve));
  await page.route('**/assets/*.js', async (route) => {
    firstHeld();
    await released;
    await route.continue();
  });
  return { release, firstHeld: held };
}

/**
 * Clicks the element `selector` finds once the page says it is taken over, at the end of that script
 * (a microtask), before any other task; notes on `<html>` whether that element had been taken over
 * itself when the page said so. It is noted at that moment, since React may go on taking over other
 * parts in the same task before the click.
 */
async function clickAtTakeOver(page: Page, selector: string) {
  await page.addInitScript((target) => {
    const setAttribute = Element.prototype.setAttribute;
    Element.prototype.setAttribute = function (this: Element, name: string, value: string) {
      setAttribute.call(this, name, value);
      if (this !== document.documentElement || name !== 'data-hydrated') return;
      Element.prototype.setAttribute = setAttribute;
      const element = document.querySelector<HTMLElement>(target)!;
      const takenOver = Object.keys(element).some((key) => key.startsWith('__reactFiber'));
      document.documentElement.dataset.takenOverAfterThePage = String(!takenOver);
      queueMicrotask(() => element.click());
    };
  }, selector);
}

const untilHydrated = (page: Page) => expect(page.locator('html')).toHaveAttribute('data-hydrated', '');

test.describe('before a server-rendered page is taken over', () => {
  test("the page's head asks for the entry and every chunk the page needs", async ({ page, users }) => {
    const login = requestedScripts(await headOf(page, '/login'));
    for (const script of scriptsOf(['src/app/routes/login.tsx'])) expect(login, script).toContain(script);

    await users.signedIn({ label: 'head-scripts' });
    const applications = requestedScripts(await headOf(page, '/apps/asc'));
    for (const script of scriptsOf(['src/app/routes/app-layout.tsx', 'src/app/routes/apps.tsx']))
      expect(applications, script).toContain(script);
  });

  test('what a person types into /login before the take-over is in the form afterwards, and signs in', async ({
    page,
    users,
  }) => {
    const user = await users.signedIn({ label: 'typed-early' });
    await page.context().clearCookies();

    const scripts = await holdScripts(page);
    await page.goto('/login', { waitUntil: 'commit' });
    await scripts.firstHeld;
    const email = page.getByLabel('Email');
    const password = page.getByLabel('Password', { exact: true });
    await email.pressSequentially(user.email);
    await password.pressSequentially(user.password);
    // Typed into the page as the server wrote it: no script of the portal has run yet.
    await expect(page.locator('html')).not.toHaveAttribute('data-hydrated');
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 800 });
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `login-typed-before-take-over-${width}.png`) });
    }

    scripts.release();
    await untilHydrated(page);
    await expect(email).toHaveValue(user.email);
    await expect(password).toHaveValue(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/apps\/asc$/);
    await expect(page.getByRole('heading', { name: 'Applications' })).toBeVisible();
  });

  test('what a person types into /signup before the take-over is in the form afterwards, and signs up', async ({
    page,
  }) => {
    const address = uniqueEmail('typed-early-signup');
    const scripts = await holdScripts(page);
    await page.goto('/signup', { waitUntil: 'commit' });
    await scripts.firstHeld;
    await page.getByLabel('Corporate email').pressSequentially(address);
    await page.getByLabel('Password', { exact: true }).pressSequentially(STRONG_PASSWORD);
    await expect(page.locator('html')).not.toHaveAttribute('data-hydrated');

    scripts.release();
    await untilHydrated(page);
    await expect(page.getByLabel('Corporate email')).toHaveValue(address);
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(page).toHaveURL(/\/verify-email$/);
    await expect(page.getByText(address)).toBeVisible();
  });

  test('a link clicked before the take-over navigates', async ({ page }) => {
    const scripts = await holdScripts(page);
    await page.goto('/login', { waitUntil: 'commit' });
    await scripts.firstHeld;
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL(/\/password\/reset$/);
    scripts.release();
    await untilHydrated(page);
  });

  test("the application cards are taken over after the rest of the page, and a click on one at the page's take-over still opens its menu", async ({
    page,
    users,
    baseURL,
  }) => {
    await users.signedIn({ label: 'cards-after-page' });
    const apps = new Applications(page.request, baseURL!);
    await apps.create({ name: 'Early Click', plan: 'basic', region: 'EU' });
    await apps.waitUntilAllActive(1);

    await clickAtTakeOver(page, 'article button[aria-label="Actions for Early Click"]');
    await page.goto('/apps/asc');

    await untilHydrated(page);
    await expect(page.locator('html')).toHaveAttribute('data-taken-over-after-the-page', 'true');
    await expect(page.getByRole('menuitem', { name: 'Edit name' })).toBeVisible();
  });

  test("on a phone, the navigation toggle clicked at the page's take-over opens the navigation", async ({
    page,
    users,
  }) => {
    await users.signedIn({ label: 'toggle-at-take-over' });
    await page.setViewportSize({ width: 390, height: 800 });
    await clickAtTakeOver(page, 'button[aria-label="Toggle navigation"]');
    await page.goto('/apps/asc');

    await untilHydrated(page);
    await expect(page.getByRole('button', { name: 'Toggle navigation' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    await expect(mainNavigation(page).getByRole('link', { name: 'Apps', exact: true })).toBeInViewport();
  });

  test("the navigation is taken over after the page: its settings toggle clicked at the page's take-over still closes the settings", async ({
    page,
    users,
  }) => {
    await users.signedIn({ label: 'navigation-after-page' });
    await clickAtTakeOver(page, 'nav button[aria-expanded]');
    await page.goto('/apps/asc');

    await untilHydrated(page);
    await expect(page.locator('html')).toHaveAttribute('data-taken-over-after-the-page', 'true');
    const settings = mainNavigation(page).getByRole('button', { name: 'Organization settings' });
    await expect(settings).toHaveAttribute('aria-expanded', 'false');
    await expect(mainNavigation(page).getByRole('link', { name: 'Manage members' })).toHaveCount(0);
  });

  test("a navigation link clicked at the page's take-over opens its page in place", async ({
    page,
    users,
  }) => {
    await users.signedIn({ label: 'navigation-link-at-take-over' });
    const documents: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'document') documents.push(new URL(request.url()).pathname);
    });
    await clickAtTakeOver(page, 'nav a[href="/billing/asc"]');
    await page.goto('/apps/asc');

    await expect(page).toHaveURL(/\/billing\/asc$/);
    await expect(page.locator('html')).toHaveAttribute('data-taken-over-after-the-page', 'true');
    await expect(page.getByRole('heading', { name: 'Billing' })).toBeVisible();
    // Opened by the router, not by loading the billing page afresh.
    expect(documents).toEqual(['/apps/asc']);
  });

  test("the page's icon is a bitmap: an SVG icon is loaded as a document of its own on the page's main thread", async ({
    page,
  }) => {
    await page.goto('/login');
    const icons = page.locator('link[rel="icon"]');
    await expect(icons).toHaveCount(1);
    const icon = await page.request.get((await icons.getAttribute('href'))!);
    expect(icon.status()).toBe(200);
    expect(icon.headers()['content-type']).toBe('image/png');
  });
});
