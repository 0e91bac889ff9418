import type { Locator, Page } from '@playwright/test';
import type {
  Application,
  CreateApplicationRequest,
  FirstActivityResponse,
  ListApplicationsResponse,
} from '@portal/contracts';
import { Applications, sdkPing } from '../../support/applications.ts';
import { expectNoSeriousA11yViolations } from '../../support/axe.ts';
import { ACME, expect, test, Users } from '../../support/fixtures.ts';

/** The default applicationLimit of a new organisation. */
const APPLICATION_LIMIT = 10;

// Ten apps (the whole default limit) spread over every plan and region, so each filter has
// something to keep and something to drop.
const TEN_APPS: CreateApplicationRequest[] = [
  { name: 'Orbit Chat', plan: 'basic', region: 'SG' },
  { name: 'Orbit Video', plan: 'advance', region: 'SG' },
  { name: 'Orbit Live', plan: 'max', region: 'SG' },
  { name: 'Nebula Chat', plan: 'basic', region: 'EU' },
  { name: 'Nebula Video', plan: 'advance', region: 'EU' },
  { name: 'Nebula Live', plan: 'max', region: 'EU' },
  { name: 'Comet Chat', plan: 'basic', region: 'US' },
  { name: 'Comet Video', plan: 'advance', region: 'US' },
  { name: 'Comet Live', plan: 'max', region: 'US' },
  { name: 'Comet Support', plan: 'max', region: 'US' },
];

function cards(page: Page): Locator {
  return page.getByRole('article');
}

function card(page: Page, name: string): Locator {
  return page.getByRole('article', { name, exact: true });
}

async function chooseFilter(page: Page, label: 'Plan' | 'Region', option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  // Closes the dropdown so it does not cover the grid.
  await page.keyboard.press('Escape');
}

async function openCardAction(page: Page, name: string, action: 'Edit name' | 'Deactivate' | 'Reactivate') {
  await card(page, name)
    .getByRole('button', { name: `Actions for ${name}` })
    .click();
  await page.getByRole('menuitem', { name: action }).click();
}

/** A super-admin with a set-up organisation and one active app, signed in in the page. */
async function adminWithOneApp(
  page: Page,
  users: Users,
  baseURL: string,
  label: string,
  fields: CreateApplicationRequest,
) {
  await users.signedIn({ label });
  const apps = new Applications(page.request, baseURL);
  const app = await apps.create(fields);
  await apps.waitUntilAllActive(1);
  return { apps, app: await apps.get(app.applicationId) };
}

test.describe('application list', () => {
  test('the grid lists every app up to the limit, search and filters narrow it, and the limit hides the create button', async ({
    page,
    users,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    await users.signedIn({ label: 'apps-list' });
    const apps = new Applications(page.request, baseURL!);
    const created: Application[] = [];
    for (const fields of TEN_APPS) created.push(await apps.create(fields));

    // The server counts the apps against applicationLimit too, not only the hidden button.
    const refused = await apps.post({ name: 'One Too Many', plan: 'basic', region: 'EU' });
    expect(refused.status()).toBe(409);
    expect(await refused.json()).toMatchObject({ code: 'APPLICATION_LIMIT_REACHED' });

    await apps.waitUntilAllActive(APPLICATION_LIMIT);
    await page.goto('/apps/asc');

    // All ten fit on the first page of twelve, so there is no pagination.
    await expect(cards(page)).toHaveCount(APPLICATION_LIMIT);
    await expect(page.getByText('10 results', { exact: true })).toBeVisible();
    await expect(page.getByText(`10/${APPLICATION_LIMIT} applications`, { exact: true })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Application pages' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Create application' })).toHaveCount(0);
    for (const fields of TEN_APPS)
      await expect(card(page, fields.name).getByText('Active', { exact: true })).toBeVisible();

    const search = page.getByRole('searchbox', { name: 'Search applications' });
    await search.fill('nebula');
    await expect(cards(page)).toHaveCount(3);
    await expect(page.getByText('3 results', { exact: true })).toBeVisible();
    await expect(card(page, 'Nebula Live')).toBeVisible();
    // The grid's cards are reused for the apps a search brings: each shows its own app's ID.
    for (const name of ['Nebula Chat', 'Nebula Video', 'Nebula Live']) {
      const { applicationId } = created.find((app) => app.name === name)!;
      await expect(card(page, name)).toContainText(applicationId);
    }

    // A part of an ID finds exactly that app.
    const target = created.find((app) => app.name === 'Comet Support')!;
    await search.fill(target.applicationId.slice(0, 13));
    await expect(cards(page)).toHaveCount(1);
    await expect(card(page, 'Comet Support')).toBeVisible();
    await expect(page.getByText('1 result', { exact: true })).toBeVisible();

    await search.fill('no such app');
    await expect(cards(page)).toHaveCount(0);
    await expect(page.getByText('No applications match your search and filters.')).toBeVisible();
    await search.fill('');
    await expect(cards(page)).toHaveCount(APPLICATION_LIMIT);

    await chooseFilter(page, 'Plan', 'Max');
    await expect(cards(page)).toHaveCount(4);
    await chooseFilter(page, 'Region', 'US');
    await expect(cards(page)).toHaveCount(2);
    await expect(card(page, 'Comet Live')).toBeVisible();
    await expect(card(page, 'Comet Support')).toBeVisible();
    await expect(page.getByText('2 results', { exact: true })).toBeVisible();

    // Filters combine with the search.
    await search.fill('support');
    await expect(cards(page)).toHaveCount(1);

    // A deactivated app no longer counts against the limit, so creating becomes possible again.
    await apps.deactivate(created[0]!);
    await page.reload();
    await expect(page.getByText(`9/${APPLICATION_LIMIT} applications`, { exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Create application' })).toBeVisible();
    await expect(cards(page)).toHaveCount(APPLICATION_LIMIT);
  });

  test("a card taken over by another app after a search does not keep the previous app's copied state", async ({
    page,
    users,
    baseURL,
  }) => {
    const { apps } = await adminWithOneApp(page, users, baseURL!, 'apps-card-reuse', {
      name: 'Alpha Reuse',
      plan: 'basic',
      region: 'EU',
    });
    await apps.create({ name: 'Beta Reuse', plan: 'basic', region: 'EU' });
    await apps.waitUntilAllActive(2);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.clock.install();
    await page.goto('/apps/asc');
    await expect(cards(page)).toHaveCount(2);
    await expect(cards(page).first()).toHaveAccessibleName('Beta Reuse');

    // Time stands still, so the "Copied" state (Mantine drops it after a second) cannot run out by itself.
    await page.clock.pauseAt(Date.now() + 60_000);
    await cards(page).first().getByRole('button', { name: 'Copy application ID' }).click();
    await expect(cards(page).first().getByRole('button', { name: 'Copied' })).toBeVisible();
    await page.getByRole('searchbox', { name: 'Search applications' }).fill('alpha');
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page).first()).toHaveAccessibleName('Alpha Reuse');
    await expect(cards(page).first().getByRole('button', { name: 'Copy application ID' })).toBeVisible();
    await page.clock.resume();
  });

  test('the edit-name modal saves only a changed, non-empty name of at most 64 characters', async ({
    page,
    users,
    baseURL,
  }) => {
    const { apps, app } = await adminWithOneApp(page, users, baseURL!, 'apps-edit', {
      name: 'Rename Me',
      plan: 'advance',
      region: 'SG',
    });
    await page.goto('/apps/asc');
    await openCardAction(page, 'Rename Me', 'Edit name');

    const dialog = page.getByRole('dialog', { name: 'Edit application' });
    await expect(dialog.getByLabel('Application ID')).toHaveValue(app.applicationId);
    const name = dialog.getByRole('textbox', { name: 'Application name' });
    const save = dialog.getByRole('button', { name: 'Save' });
    await expect(name).toHaveValue('Rename Me');
    // The live counter follows the field.
    await expect(dialog.getByText('9/64', { exact: true })).toBeVisible();
    await expect(save).toBeDisabled();

    // Typing past the maximum is blocked rather than reported.
    await name.fill('');
    await expect(dialog.getByText('Please enter an application name.')).toBeVisible();
    await expect(save).toBeDisabled();
    await name.pressSequentially('x'.repeat(70));
    await expect(name).toHaveValue('x'.repeat(64));
    await expect(dialog.getByText('64/64', { exact: true })).toBeVisible();

    // Back to the unchanged name: nothing to save.
    await name.fill('Rename Me');
    await expect(save).toBeDisabled();

    await name.fill('Renamed Rocket');
    await expect(save).toBeEnabled();
    await save.click();
    await expect(page.getByText('The application name has been updated.')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(card(page, 'Renamed Rocket')).toBeVisible();
    await expect(card(page, 'Rename Me')).toHaveCount(0);
    expect((await apps.get(app.applicationId)).name).toBe('Renamed Rocket');
  });

  test('deactivating needs the typed name; the card shows the state and the app can be reactivated', async ({
    page,
    users,
    baseURL,
  }) => {
    const { apps, app } = await adminWithOneApp(page, users, baseURL!, 'apps-deactivate', {
      name: 'Pause Me',
      plan: 'basic',
      region: 'US',
    });
    await page.goto('/apps/asc');
    const appCard = card(page, 'Pause Me');
    await expect(appCard.getByText('Active', { exact: true })).toBeVisible();

    await openCardAction(page, 'Pause Me', 'Deactivate');
    const dialog = page.getByRole('dialog', { name: 'Deactivate application' });
    const confirm = dialog.getByRole('button', { name: 'Deactivate' });
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel('Type the application name to confirm').fill('Pause');
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel('Type the application name to confirm').fill('Pause Me');
    await confirm.click();

    await expect(page.getByText('Pause Me has been deactivated.')).toBeVisible();
    await expect(dialog).toBeHidden();
    // §2 dates the deactivation only for temporarily inactive apps; a deactivated one keeps its created date.
    await expect(appCard.getByText('Deactivated', { exact: true })).toBeVisible();
    expect((await apps.get(app.applicationId)).state).toBe('deactivated');

    await openCardAction(page, 'Pause Me', 'Reactivate');
    await expect(page.getByText('Pause Me is being reactivated.')).toBeVisible();
    await expect(appCard.getByText('Active', { exact: true })).toBeVisible();
    expect((await apps.get(app.applicationId)).state).toBe('active');
  });

  test('the sample SDK client connects to a new app, which then reports its first activity and opens its console', async ({
    page,
    users,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const { app } = await adminWithOneApp(page, users, baseURL!, 'apps-sdk', {
      name: 'SDK Sample',
      plan: 'max',
      region: 'EU',
    });
    expect(app.networkId).toBeTruthy();
    expect(app.consoleUrl).toBeTruthy();

    const apps = new Applications(page.request, baseURL!);
    const apiKey = await apps.regionalApiKey(app);

    const firstActivity = async () => {
      const response = await page.request.get(
        `/regions/eu/network/first-activity?networkId=${app.networkId}`,
      );
      expect(response.status()).toBe(200);
      return ((await response.json()) as FirstActivityResponse).status;
    };
    expect(await firstActivity()).toBe(false);

    const stdout = await sdkPing(baseURL!, 'eu', apiKey, 'alice');
    expect(stdout).toContain(`on network ${app.networkId}`);
    await expect.poll(firstActivity, { timeout: 10_000 }).toBe(true);

    await page.goto(app.consoleUrl!);
    await expect(page.getByText('SDK Sample').first()).toBeVisible();
  });

  test("a card's Go to console opens the console in a new tab with a regional session of its own", async ({
    page,
    users,
    baseURL,
  }) => {
    const { app } = await adminWithOneApp(page, users, baseURL!, 'apps-console', {
      name: 'Console Card',
      plan: 'basic',
      region: 'SG',
    });
    // No regional session exists yet: the button must open one before the console loads.
    await page.goto('/apps/asc');
    const [consoleTab] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByRole('button', { name: 'Go to console' }).click(),
    ]);
    await expect(consoleTab).toHaveURL(app.consoleUrl!);
    await expect(consoleTab.getByRole('heading', { name: 'Console Card' })).toBeVisible();
  });

  test('the server refuses what the list hides: no session, another organisation, invalid bodies', async ({
    page,
    users,
    baseURL,
    browser,
    playwright,
  }) => {
    const { app } = await adminWithOneApp(page, users, baseURL!, 'apps-owner', {
      name: 'Private App',
      plan: 'basic',
      region: 'SG',
    });

    const anonymous = await playwright.request.newContext({ baseURL });
    try {
      const response = await anonymous.post('/api/v1/applications', {
        data: { name: 'Sneaky', plan: 'basic', region: 'EU' },
        headers: { origin: baseURL! },
      });
      expect(response.status()).toBe(401);
    } finally {
      await anonymous.dispose();
    }

    const other = await browser.newContext({ baseURL });
    try {
      const otherUsers = new Users(other.request, baseURL!);
      await otherUsers.signedIn({
        label: 'apps-other',
        organization: { ...ACME, organization: 'Other Rockets' },
      });
      const read = await other.request.get(`/api/v1/applications/${app.applicationId}`);
      expect(read.status()).toBe(404);
      const write = await other.request.put(`/api/v1/applications/${app.applicationId}`, {
        data: { name: 'Taken Over' },
        headers: { origin: baseURL! },
      });
      expect(write.status()).toBe(404);
      const { data } = (await (
        await other.request.get('/api/v1/applications')
      ).json()) as ListApplicationsResponse;
      expect(data).toEqual([]);
    } finally {
      await other.close();
    }
    expect((await new Applications(page.request, baseURL!).get(app.applicationId)).name).toBe('Private App');

    const apps = new Applications(page.request, baseURL!);
    const invalid: [unknown, string][] = [
      [{ name: 'n'.repeat(65), plan: 'basic', region: 'EU' }, 'name'],
      [{ name: 'Valid', plan: 'basic', region: 'XX' }, 'region'],
      [{ name: 'Valid', plan: 'gold', region: 'EU' }, 'plan'],
    ];
    for (const [body, field] of invalid) {
      const response = await apps.post(body);
      expect(response.status(), JSON.stringify(body)).toBe(400);
      expect(await response.json(), JSON.stringify(body)).toMatchObject({ field });
    }
    // None of the refused bodies created anything.
    expect((await apps.list()).total).toBe(1);
  });

  test('the list with apps has no serious accessibility violations', async ({ page, users, baseURL }) => {
    await adminWithOneApp(page, users, baseURL!, 'apps-a11y', {
      name: 'Accessible App',
      plan: 'advance',
      region: 'EU',
    });
    await page.goto('/apps/asc');
    await expect(card(page, 'Accessible App').getByText('Active', { exact: true })).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'application list');
  });
});
