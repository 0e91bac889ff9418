import type { Account, ApiAnswer, Application, PublicConfig } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { isServerRendered, renderPage } from './entry-server';
import { FIRST_RENDER_SCRIPT_ID, type FirstRenderData } from './lib/first-render';

const config: PublicConfig = {
  productName: 'Social',
  googleSignIn: false,
  ssoSignIn: false,
  dashboardUrl: 'https://dashboard.example.com',
  helpLinks: {
    developerPortal: 'https://developers.example.com',
    documentation: 'https://docs.example.com',
    communityHub: 'https://community.example.com',
    faq: 'https://docs.example.com/faq',
    manageCommunity: 'https://docs.example.com/social/manage-community',
    createChannel: 'https://docs.example.com/chat/create-channel',
  },
  regionBaseUrls: { SG: '/regions/sg', EU: '/regions/eu', US: '/regions/us' },
};

const account: Account = {
  email: 'ann@acme.io',
  organization: 'Acme',
  organizationId: '88346c0a-9d38-4309-bd86-7d52374d184a',
  displayName: 'Ann Lee',
  memberId: '0daf3937-38df-4ae3-bf0b-22632b5f6bf9',
  userEmail: 'ann@acme.io',
  lastLogin: Date.UTC(2026, 10, 27),
  roles: [{ id: 'portal.super-admin' }],
  permissions: ['VIEW_APPLICATION', 'EDIT_APPLICATION', 'CREATE_APPLICATION', 'VIEW_BILLING'],
  accountStatus: 'active',
  trialEndAt: null,
  havePaymentProfile: 'false',
  contractType: 'payg',
  memberLimit: 10,
  applicationLimit: 10,
  enforcedSSO: false,
  isAccountFilled: true,
  isFreeCredit: true,
  balance: 0,
  firstName: 'Ann',
  lastName: 'Lee',
  billingName: '',
  billingAddress: '',
  billingAddress2: '',
  billingCountry: 'SG',
  billingState: '',
  billingCity: '',
  billingZipCode: '',
  vatNumber: '',
  requireTwoFactor: false,
  twoFactorEnabled: false,
  twoFactorEnrolmentRequired: false,
  hasPassword: true,
  offerTour: false,
};

/** A name that would end the data's script element, and the page's markup, if written as it is. */
const HOSTILE_NAME = '</script><script>alert(1)</script><!--';

const application = (name: string, createdAt: string): Application => ({
  applicationId: `f09216fa-ffc0-404d-99f7-${name.length.toString().padStart(12, '0')}`,
  name,
  plan: 'basic',
  planName: 'Social Core',
  region: 'SG',
  state: 'active',
  createdAt,
  deactivatedAt: null,
  consoleUrl: 'http://localhost/regions/sg/console/net_1',
  description: '',
  networkId: 'net_1',
});

const applications = {
  data: [
    application('Chat for Acme', '2026-11-27T23:30:00.000Z'),
    application(HOSTILE_NAME, '2026-11-01T00:00:00.000Z'),
  ],
};

/** The portal's API as the render asks it, answering as a signed-in or signed-out browser would. */
function portalApi(signedIn: Account | null, changes: Record<string, ApiAnswer> = {}) {
  const asked: string[] = [];
  const answers: Record<string, ApiAnswer> = {
    '/api/v1/accounts/me': signedIn
      ? { status: 200, body: signedIn }
      : { status: 401, body: { code: 'UNAUTHORIZED', message: 'Sign in.' } },
    '/api/v1/config': { status: 200, body: config },
    '/api/v1/applications?limit=10000': { status: 200, body: applications },
    ...changes,
  };
  const load = (path: string) => {
    asked.push(path);
    const answer = answers[path];
    return answer ? Promise.resolve(answer) : Promise.reject(new Error(`nothing answers ${path}`));
  };
  return { load, asked };
}

/** The data as the browser reads it back from the page. */
function dataOf(dataScript: string): FirstRenderData {
  const match = new RegExp(
    `^<script type="application/json" id="${FIRST_RENDER_SCRIPT_ID}">(.*)</script>$`,
    's',
  ).exec(dataScript);
  if (!match?.[1]) throw new Error(`not the data's script element: ${dataScript.slice(0, 80)}`);
  return JSON.parse(match[1]) as FirstRenderData;
}

describe('the server render', () => {
  it('renders the sign-in page for a visitor, with its title apart and the data it was rendered with', async () => {
    const api = portalApi(null);
    const page = await renderPage('/login', api.load);
    expect(page).toBeDefined();
    expect(page!.html).toContain('Sign in to your account');
    expect(page!.html).not.toContain('<title>');
    expect(page!.title).toBe('Sign in | Developer Portal');
    expect(page!.signedIn).toBe(false);
    expect(dataOf(page!.dataScript)).toEqual({ account: null, config, queries: [] });
    expect(api.asked.sort()).toEqual(['/api/v1/accounts/me', '/api/v1/config']);
  });

  it('renders the sign-up page', async () => {
    const page = await renderPage('/signup', portalApi(null).load);
    expect(page?.html).toContain('Use your work address; personal email providers are not accepted.');
    expect(page?.title).toBe('Sign up | Developer Portal');
  });

  it("renders a member's application list with the frame and the list's answer, under the list's query key", async () => {
    const api = portalApi(account);
    const page = await renderPage('/apps/asc', api.load);
    expect(page?.signedIn).toBe(true);
    expect(page!.html).toContain('Applications');
    expect(page!.html).toContain('Chat for Acme');
    expect(page!.html).toContain('Ann Lee');
    // Dates are written in UTC on the server; the browser writes them in its own zone once it has taken over.
    expect(page!.html).toContain('27 Nov 2026');
    expect(dataOf(page!.dataScript)).toEqual({
      account,
      config,
      queries: [{ queryKey: ['applications', { limit: 10_000 }], data: applications }],
    });
  });

  it('renders each page with its code loaded, with no Suspense boundary around the page or the frame', async () => {
    // React takes a boundary the server rendered over in a pass of its own, after the rest
    // (decision 045, sixth part). React marks one with <!--$-->.
    const login = await renderPage('/login', portalApi(null).load);
    expect(login!.html).not.toContain('<!--$');
    const list = await renderPage('/apps/asc', portalApi(account).load);
    expect(list!.html).toMatch(/<main [^>]*><div class="[^"]*page/);
    // The frame's first element, not a boundary's mark.
    expect(list!.html).toMatch(/^<header /);
  });

  it('renders the usage alerts crossed this month above the list for who sees plan details, and never waits for them', async () => {
    const planViewer: Account = { ...account, permissions: [...account.permissions, 'VIEW_PLAN_DETAIL'] };
    const notices = {
      results: [
        {
          id: 'notice-1',
          kind: 'mau',
          threshold: 500,
          figure: 512,
          licenseMau: 0,
          cycle: '2026-11',
          createdAt: '2026-11-20T08:00:00.000Z',
        },
      ],
    };
    const api = portalApi(planViewer, { '/api/v1/usage-alerts/notices': { status: 200, body: notices } });
    const page = await renderPage('/apps/asc', api.load);
    expect(page!.html).toContain('Your monthly active users reached 512 this month, over your alert of 500.');
    expect(dataOf(page!.dataScript).queries).toEqual([
      { queryKey: ['applications', { limit: 10_000 }], data: applications },
      { queryKey: ['usage-alerts', 'notices'], data: notices },
    ]);

    const failing = { status: 500, body: { code: 'INTERNAL', message: 'Try again.' } };
    const withoutNotices = await renderPage(
      '/apps/asc',
      portalApi(planViewer, { '/api/v1/usage-alerts/notices': failing }).load,
    );
    expect(withoutNotices!.html).toContain('Chat for Acme');
    expect(dataOf(withoutNotices!.dataScript).queries).toHaveLength(1);

    // Who does not see plan details is not asked about.
    const member = portalApi(account);
    await renderPage('/apps/asc', member.load);
    expect(member.asked).not.toContain('/api/v1/usage-alerts/notices');
  });

  it('writes a hostile application name as text, and as data that cannot end its script element', async () => {
    const page = await renderPage('/apps/asc', portalApi(account).load);
    expect(page!.html).not.toContain(HOSTILE_NAME);
    expect(page!.html).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;!--');
    // The only `<` in the element are its own tags.
    const inner = page!.dataScript.slice(
      page!.dataScript.indexOf('>') + 1,
      page!.dataScript.lastIndexOf('</script>'),
    );
    expect(inner).not.toContain('<');
    const listed = dataOf(page!.dataScript).queries[0]?.data as typeof applications;
    expect(listed.data.map((app) => app.name)).toContain(HOSTILE_NAME);
  });

  it('leaves to the browser every page the route guard would not show as it stands', async () => {
    const notSetUp = { ...account, isAccountFilled: false };
    const enrolling = { ...account, twoFactorEnrolmentRequired: true };
    const noApplications = {
      ...account,
      permissions: account.permissions.filter((p) => p !== 'VIEW_APPLICATION'),
    };
    const cases: [string, Account | null][] = [
      ['/apps/asc', null],
      ['/login', account],
      ['/signup', account],
      ['/apps/asc', notSetUp],
      ['/apps/asc', enrolling],
      ['/apps/asc', noApplications],
    ];
    for (const [url, signedIn] of cases) {
      const api = portalApi(signedIn);
      expect(
        await renderPage(url, api.load),
        `${url} for ${signedIn ? 'a member' : 'a visitor'}`,
      ).toBeUndefined();
      // Nothing is asked of the list for a page that is not shown.
      expect(api.asked).not.toContain('/api/v1/applications?limit=10000');
    }
  });

  it('leaves the page to the browser when an answer is not the one the page needs', async () => {
    const failing = { status: 500, body: { code: 'INTERNAL_ERROR', message: 'Something went wrong.' } };
    const forbidden = { status: 403, body: { code: 'FORBIDDEN', message: 'Forbidden.' } };
    expect(
      await renderPage('/login', portalApi(null, { '/api/v1/accounts/me': failing }).load),
    ).toBeUndefined();
    expect(await renderPage('/login', portalApi(null, { '/api/v1/config': failing }).load)).toBeUndefined();
    expect(
      await renderPage(
        '/apps/asc',
        portalApi(account, { '/api/v1/applications?limit=10000': forbidden }).load,
      ),
    ).toBeUndefined();
  });

  it('renders only the pages people arrive at, asking nothing for the others', async () => {
    expect(['/login', '/signup', '/apps/asc', '/apps/anything'].every(isServerRendered)).toBe(true);
    for (const url of ['/billing/asc', '/manage-members', '/setup-organization', '/apps', '/']) {
      expect(isServerRendered(url), url).toBe(false);
      const api = portalApi(account);
      expect(await renderPage(url, api.load)).toBeUndefined();
      expect(api.asked).toEqual([]);
    }
  });
});
