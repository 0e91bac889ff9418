import type { Browser, Page } from '@playwright/test';
import type { Account } from '@portal/contracts';
import { expectNoSeriousA11yViolations } from '../../support/axe.ts';
import { ACME, expect, test } from '../../support/fixtures.ts';
import { joinAs, Members, rowOf } from '../../support/members.ts';
import { openServerRenderedPage } from '../../support/first-render.ts';
import { screenshotsAtWidths } from '../../support/screenshots.ts';
import {
  OIDC_CLIENT,
  SSO_MEMBER_ID,
  continueWithSso,
  oidcConnection,
  oidcPerson,
  samlPerson,
  ssoOrganizationThroughApi,
  ssoTest,
  uniqueEmailDomain,
  uniqueSsoDomain,
  verifyPath,
} from '../../support/sso-portal.ts';
import { mainNavigation, signOutThroughUserMenu, submitSignIn } from '../../support/ui.ts';

/*
 * Organisation single sign-on in the browser (beyond the spec's own server, within its pages): a
 * super-admin connects the organisation's identity provider on Organisation settings → Single
 * sign-on, and people sign in on /sign-in-sso by the organisation's SSO domain, through a local
 * OpenID provider or SAML IdP that approves at once as the identity each test names. The redirects,
 * the IdP's auto-posted SAML form, the portal's callbacks and the route guard are all real.
 */

/** §8 wording of the identity provider's refusals, and the portal's for a password under enforced SSO. */
const NOT_IN_WHITELIST =
  'Your email is not allowed to sign in to this organization. Contact your administrator.';
const USER_LIMIT_REACHED = 'Your organization has reached its user limit. Contact your administrator.';
const SSO_REQUIRED =
  'Your organization signs in with single sign-on. Use "Sign in with SSO" and your organization domain.';
const SSO_LINK = 'Sign in with SSO';
/** What /sign-in-sso says of a refusal whose code it does not know (decision 029). */
const SSO_REFUSED_GENERAL =
  'Single sign-on could not sign you in. Please try again; if it keeps failing, ask your administrator.';
const PHISHING_PHONE = '+1 555 0100';
const PHISHING_LINE = `Your account is locked. Call ${PHISHING_PHONE} or sign in at https://evil.example to unlock it.`;

async function accountOf(page: Page): Promise<Account> {
  const response = await page.request.get('/api/v1/accounts/me');
  expect(response.status()).toBe(200);
  return (await response.json()) as Account;
}

/** A browser of someone else's (no session), on this spec's portal. */
async function newVisitor(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, locale: 'en-US', timezoneId: 'UTC' });
  return context.newPage();
}

/** The public configuration /login came with, once the browser has taken the page over. */
const openLogin = (page: Page) => openServerRenderedPage(page, '/login');

test('without an organisation that signs in with SSO, /login offers no SSO sign-in', async ({ page }) => {
  // The shared portal: no organisation there has connected an identity provider.
  expect(await openLogin(page)).toMatchObject({ ssoSignIn: false });
  await expect(page.getByRole('link', { name: SSO_LINK })).toHaveCount(0);
});

test('an identity provider’s error_description on a protected page is shown on /sign-in-sso in the portal’s words only', async ({
  page,
}) => {
  // §2 guard: a signed-out visitor carrying error_description goes to /sign-in-sso with it (§8 wording).
  const description = 'USER_LIMIT_REACHED: the organisation is full';
  await page.goto(`/billing/asc?${new URLSearchParams({ error_description: description })}`);
  await expect(page).toHaveURL(`/sign-in-sso?${new URLSearchParams({ error_description: description })}`);
  await expect(page.getByRole('alert')).toHaveText(USER_LIMIT_REACHED);

  // Anything else gets one general message, never its text (decision 029): a link anyone can write
  // must not put a phishing line on the portal's own page.
  const phishing = `${PHISHING_LINE} NOT_IN_WHITELIST`;
  await page.goto(
    `/apps/asc?${new URLSearchParams({ error: 'access_denied', error_description: phishing })}`,
  );
  await expect(page).toHaveURL(/\/sign-in-sso\?error=access_denied&error_description=/);
  await expect(page.getByRole('alert')).toHaveText(SSO_REFUSED_GENERAL);
  await expect(page.getByText(PHISHING_PHONE)).toHaveCount(0);
  await page.goto(`/sign-in-sso?${new URLSearchParams({ error_description: PHISHING_LINE })}`);
  await expect(page.getByRole('alert')).toHaveText(SSO_REFUSED_GENERAL);
  expect(await page.locator('body').innerText()).not.toContain(PHISHING_PHONE);
  await screenshotsAtWidths(page, 'sso-sign-in-unknown-error');

  // Nor does the server put the text in what it renders: /login is rendered there (decision 026).
  for (const path of ['/login', '/sign-in-sso']) {
    const html = await (
      await page.request.get(`${path}?${new URLSearchParams({ error_description: PHISHING_LINE })}`)
    ).text();
    expect(html, path).not.toContain(PHISHING_PHONE);
  }
});

ssoTest(
  'OIDC: the super-admin connects the identity provider on /single-sign-on and proves the email domain by DNS; a new person at it signs in with SSO and joins as a developer',
  async ({ page, users, oidc, dns, baseURL, browser }) => {
    // Three people's browsers, an invitation by mail and two SSO round trips.
    ssoTest.setTimeout(240_000);
    await users.signedIn({
      label: 'sso-oidc-owner',
      organization: { ...ACME, organization: 'Single Sign Corp' },
    });
    const { organizationId } = await accountOf(page);
    const domain = uniqueSsoDomain('oidc');
    const emailDomain = uniqueEmailDomain('oidc');

    await test.step('the Single sign-on page: test the connection, then save it', async () => {
      await page.goto('/apps/asc');
      await mainNavigation(page).getByRole('link', { name: 'Single sign-on' }).click();
      await expect(page).toHaveURL(/\/single-sign-on$/);
      await expect(page.getByRole('heading', { name: 'Single sign-on', level: 1 })).toBeVisible();
      await expect(page.getByText('No identity provider is connected yet.')).toBeVisible();
      // What to register at the identity provider: the portal's callback of this organisation.
      await expect(page.getByRole('textbox', { name: 'OIDC redirect URL (callback URL)' })).toHaveValue(
        `${baseURL}/api/auth/sso/callback/sso-${organizationId}`,
      );

      await page.getByLabel('Issuer URL').fill(oidc.issuer);
      await page.getByLabel('Client ID').fill(OIDC_CLIENT.clientId);
      await page.getByLabel('Client secret').fill(OIDC_CLIENT.clientSecret);
      const saveConnection = page.getByRole('button', { name: 'Save connection' });
      await expect(saveConnection).toBeDisabled();
      await page.getByRole('button', { name: 'Test connection' }).click();
      await expect(page.getByText('The connection works')).toBeVisible();
      await saveConnection.click();
      await expect(page.getByText('The identity provider connection has been saved.')).toBeVisible();
      await expect(page.getByText('Saved connection')).toBeVisible();
    });

    await test.step('the SSO domain and the email domain are saved; the page gives the sign-in link', async () => {
      const signIn = page.getByRole('form', { name: 'Sign-in' });
      await signIn.getByRole('textbox', { name: 'SSO domain' }).fill(domain);
      const emailDomains = signIn.getByLabel('Email domains your organization owns');
      await emailDomains.fill(emailDomain);
      await emailDomains.press('Enter');
      await signIn.getByRole('button', { name: 'Save', exact: true }).click();
      await expect(page.getByText('The sign-in settings have been saved.')).toBeVisible();
      await expect(signIn.getByRole('textbox', { name: 'Sign-in link' })).toHaveValue(
        `${baseURL}/sign-in-sso?org=${domain}&init=true`,
      );
      // Saved, as the super-admin finds the page again (without the toasts over it).
      await page.reload();
      await expect(page.getByText('Saved connection')).toBeVisible();
      await expect(signIn.getByRole('textbox', { name: 'SSO domain' })).toHaveValue(domain);
    });

    const proof = page.getByRole('listitem', { name: emailDomain });
    const outcome = proof.getByRole('status');
    let record = { name: '', value: '' };
    await test.step('the email domain is pending: the page shows the TXT record to add, each part to copy', async () => {
      await expect(proof.getByText('Pending', { exact: true })).toBeVisible();
      record = {
        name: await proof.getByRole('textbox', { name: 'TXT record name' }).inputValue(),
        value: await proof.getByRole('textbox', { name: 'TXT record value' }).inputValue(),
      };
      expect(record.name).toBe(`_portal-challenge.${emailDomain}`);
      expect(record.value).toMatch(/^portal-verification=\S+$/);
      await expect(outcome).toHaveText('Not checked yet.');
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      await proof.getByRole('button', { name: 'Copy TXT record value' }).click();
      await expect(page.getByText('Copied to clipboard').first()).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(record.value);
      // As the super-admin finds the page again (without the toast and tooltip over it).
      await page.reload();
      await expect(proof.getByText('Pending', { exact: true })).toBeVisible();
      await screenshotsAtWidths(page, 'sso-settings-pending');
      await expectNoSeriousA11yViolations(page, 'single sign-on settings, domain pending');
    });

    const person = oidcPerson('joiner', emailDomain);
    await test.step('while the domain is pending, the server lets nobody at it join', async () => {
      const early = await newVisitor(browser, baseURL!);
      try {
        await early.goto('/sign-in-sso');
        oidc.signInAs(oidcPerson('early', emailDomain));
        await continueWithSso(early, domain);
        await expect(early).toHaveURL(/\/sign-in-sso\?.*error_description=[^&]*NOT_IN_WHITELIST/);
        await expect(early.getByRole('alert')).toHaveText(NOT_IN_WHITELIST);
        expect((await early.request.get('/api/v1/accounts/me')).status()).toBe(401);
      } finally {
        await early.context().close();
      }
    });

    await test.step('Verify before the record exists says it was not found yet', async () => {
      await proof.getByRole('button', { name: `Verify ${emailDomain}` }).click();
      await expect(outcome).toContainText('The record was not found yet.');
      await expect(outcome).toContainText(/Last checked \d\d \w{3} \d{4} at \d\d:\d\d\./);
      await expect(proof.getByText('Pending', { exact: true })).toBeVisible();
    });

    await test.step('a member who is not the super-admin may not verify the domain', async () => {
      const developer = await joinAs(
        browser,
        baseURL!,
        new Members(page.request, baseURL!),
        'portal.developer',
      );
      try {
        dns.publish(record.name, [record.value]);
        const refused = await developer.page.request.post(verifyPath(emailDomain), {
          headers: { origin: baseURL! },
        });
        expect(refused.status()).toBe(403);
        await developer.page.goto('/single-sign-on');
        await expect(developer.page).toHaveURL(/\/forbidden$/);
      } finally {
        await developer.context.close();
      }
      // The record is there, but nobody asked for it with the right to: the domain is still pending.
      await page.reload();
      await expect(proof.getByText('Pending', { exact: true })).toBeVisible();
    });

    await test.step('with the TXT record published, Verify proves the domain', async () => {
      await proof.getByRole('button', { name: `Verify ${emailDomain}` }).click();
      await expect(proof.getByText('Verified', { exact: true })).toBeVisible();
      await expect(outcome).toContainText(/^Verified on \d\d \w{3} \d{4} at \d\d:\d\d\./);
      await expect(proof.getByRole('textbox', { name: 'TXT record value' })).toHaveCount(0);
      await page.reload();
      await expect(proof.getByText('Verified', { exact: true })).toBeVisible();
      await screenshotsAtWidths(page, 'sso-settings-verified');
      await expectNoSeriousA11yViolations(page, 'single sign-on settings, domain verified');
    });

    const joiner = await newVisitor(browser, baseURL!);
    try {
      await test.step('a new person offered SSO on /login signs in by the domain and lands in the portal', async () => {
        expect(await openLogin(joiner)).toMatchObject({ ssoSignIn: true });
        await joiner.getByRole('link', { name: SSO_LINK }).click();
        await expect(joiner).toHaveURL(/\/sign-in-sso$/);
        oidc.signInAs(person);
        await continueWithSso(joiner, domain);
        await expect(joiner).toHaveURL(/\/apps\/asc$/);
        const account = await accountOf(joiner);
        expect(account).toMatchObject({
          userEmail: person.email,
          organizationId,
          roles: [{ id: 'portal.developer' }],
          hasPassword: false,
        });
        expect(account.memberId).toMatch(SSO_MEMBER_ID);
      });

      await test.step('their /edit-profile has no change-password tab', async () => {
        await joiner.goto('/edit-profile');
        await expect(joiner.getByRole('tab', { name: 'Profile' })).toBeVisible();
        await expect(joiner.getByRole('tab', { name: 'Change password' })).toHaveCount(0);
      });
    } finally {
      await joiner.context().close();
    }

    await test.step('the super-admin sees the new member labelled as an SSO user', async () => {
      await page.goto('/manage-members');
      await expect(rowOf(page, person.email).getByText('Developer')).toBeVisible();
      await expect(rowOf(page, person.email).getByText('SSO user', { exact: true })).toBeVisible();
      const { userEmail: ownerEmail } = await accountOf(page);
      await expect(rowOf(page, ownerEmail)).toBeVisible();
      await expect(rowOf(page, ownerEmail).getByText('SSO user', { exact: true })).toHaveCount(0);
      // The super-admin has a password: their own profile offers the change.
      await page.goto('/edit-profile');
      await expect(page.getByRole('tab', { name: 'Change password' })).toBeVisible();
    });
  },
);

ssoTest(
  'a sign-in link with init=true starts the organisation’s SSO at once',
  async ({ page, oidc, oidcOrganization, baseURL }) => {
    const { settings, domain, emailDomain, organizationId } = oidcOrganization;
    expect(settings.signInUrl).toBe(`${baseURL}/sign-in-sso?org=${domain}&init=true`);
    const person = oidcPerson('linked', emailDomain);
    oidc.signInAs(person);
    const authorizations = oidc.authorizations.length;
    await page.goto(settings.signInUrl!);
    await expect(page).toHaveURL(/\/apps\/asc$/);
    // Nothing was clicked: the page went to the identity provider, which sent the browser back to
    // the organisation's callback.
    expect(oidc.authorizations.slice(authorizations).map((request) => request.redirectUri)).toEqual([
      settings.serviceProvider.oidcRedirectUrl,
    ]);
    expect(await accountOf(page)).toMatchObject({ userEmail: person.email, organizationId });
  },
);

ssoTest(
  'an address outside the owned domains is refused: /sign-in-sso says it is not allowed (NOT_IN_WHITELIST)',
  async ({ page, oidc, oidcOrganization }) => {
    await page.goto('/sign-in-sso');
    await expectNoSeriousA11yViolations(page, 'sign in with SSO');
    oidc.signInAs(oidcPerson('stranger', uniqueEmailDomain('elsewhere')));
    await continueWithSso(page, oidcOrganization.domain);
    await expect(page).toHaveURL(/\/sign-in-sso\?.*error_description=[^&]*NOT_IN_WHITELIST/);
    await expect(page.getByRole('alert')).toHaveText(NOT_IN_WHITELIST);
    expect((await page.request.get('/api/v1/accounts/me')).status()).toBe(401);
    await screenshotsAtWidths(page, 'sso-sign-in-refused');
    await expectNoSeriousA11yViolations(page, 'sign in with SSO, refused');
  },
);

ssoTest(
  'a new member beyond the member limit is refused: /sign-in-sso says the organisation is full (USER_LIMIT_REACHED)',
  async ({ page, oidc, dns, operator, baseURL }) => {
    const org = await ssoOrganizationThroughApi(page.request, baseURL!, oidcConnection(oidc), 'full', dns);
    // The super-admin holds the one seat.
    await operator.run('org', 'set-limits', org.organizationId, '--members', '1');
    await page.context().clearCookies();
    await page.goto('/sign-in-sso');
    oidc.signInAs(oidcPerson('late', org.emailDomain));
    await continueWithSso(page, org.domain);
    await expect(page).toHaveURL(/\/sign-in-sso\?.*error_description=[^&]*USER_LIMIT_REACHED/);
    await expect(page.getByRole('alert')).toHaveText(USER_LIMIT_REACHED);
    expect((await page.request.get('/api/v1/accounts/me')).status()).toBe(401);
  },
);

ssoTest(
  'SAML: the super-admin connects the IdP by its metadata XML; a new person signs in through it',
  async ({ page, saml, dns, baseURL, browser }) => {
    const org = await ssoOrganizationThroughApi(page.request, baseURL!, null, 'saml', dns);

    await test.step('the Single sign-on page tests and saves the metadata XML', async () => {
      await page.goto('/single-sign-on');
      await expect(page.getByText('No identity provider is connected yet.')).toBeVisible();
      await page.getByRole('radio', { name: 'SAML 2.0' }).check();
      await page.getByRole('radio', { name: 'Paste metadata XML' }).check();
      await page.getByRole('textbox', { name: 'Metadata XML' }).fill(saml.metadataXml);
      await page.getByRole('button', { name: 'Test connection' }).click();
      await expect(page.getByText('The connection works')).toBeVisible();
      await page.getByRole('button', { name: 'Save connection' }).click();
      await expect(page.getByText('The identity provider connection has been saved.')).toBeVisible();
      await expect(page.getByText(saml.entityId).first()).toBeVisible();
    });

    const person = samlPerson('saml', org.emailDomain);
    const visitor = await newVisitor(browser, baseURL!);
    try {
      await visitor.goto('/sign-in-sso');
      saml.signInAs(person);
      await continueWithSso(visitor, org.domain);
      await expect(visitor).toHaveURL(/\/apps\/asc$/);
      const account = await accountOf(visitor);
      expect(account).toMatchObject({ userEmail: person.email, organizationId: org.organizationId });
      expect(account.memberId).toMatch(SSO_MEMBER_ID);
    } finally {
      await visitor.context().close();
    }
  },
);

ssoTest(
  'enforced SSO: no invitations, members’ passwords refused with a way to SSO, the super-admin’s password still works',
  async ({ page, oidc, dns, baseURL, browser }) => {
    const org = await ssoOrganizationThroughApi(
      page.request,
      baseURL!,
      oidcConnection(oidc),
      'enforced',
      dns,
    );
    const developer = await joinAs(
      browser,
      baseURL!,
      new Members(page.request, baseURL!),
      'portal.developer',
    );
    try {
      const invite = page.getByRole('button', { name: 'Invite members' });
      const invitedTab = page.getByRole('tab', { name: 'Invited members' });

      await test.step('the super-admin requires single sign-on on /single-sign-on', async () => {
        await page.goto('/manage-members');
        await expect(invite).toBeVisible();
        await expect(invitedTab).toBeVisible();
        await page.goto('/single-sign-on');
        await page.getByRole('switch', { name: 'Require single sign-on' }).check();
        await page
          .getByRole('form', { name: 'Sign-in' })
          .getByRole('button', { name: 'Save', exact: true })
          .click();
        const dialog = page.getByRole('dialog', { name: 'Require single sign-on' });
        await dialog.getByRole('button', { name: 'Require single sign-on' }).click();
        await expect(dialog).toBeHidden();
        await expect(page.getByText('The sign-in settings have been saved.')).toBeVisible();
      });

      await test.step('/manage-members hides the invite button and the empty invited members tab', async () => {
        await page.goto('/manage-members');
        await expect(page.getByRole('tab', { name: 'Members' })).toBeVisible();
        await expect(rowOf(page, developer.user.email)).toBeVisible();
        await expect(invite).toHaveCount(0);
        await expect(invitedTab).toHaveCount(0);
      });

      await test.step('a member with a password is refused on /login and shown the way to SSO', async () => {
        const member = developer.page;
        // Requiring SSO ended the member's session.
        expect((await member.request.get('/api/v1/accounts/me')).status()).toBe(401);
        await member.goto('/login');
        await submitSignIn(member, developer.user);
        const refusal = member.getByRole('alert').filter({ hasText: SSO_REQUIRED });
        await expect(refusal).toBeVisible();
        await refusal.getByRole('link', { name: SSO_LINK }).click();
        await expect(member).toHaveURL(/\/sign-in-sso$/);
      });

      await test.step('the super-admin still signs in with the password', async () => {
        await signOutThroughUserMenu(page);
        await expect(page).toHaveURL(/\/login$/);
        await submitSignIn(page, org.owner);
        await expect(page).toHaveURL(/\/apps\/asc$/);
      });
    } finally {
      await developer.context.close();
    }
  },
);
