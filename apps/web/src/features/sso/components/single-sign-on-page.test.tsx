// @vitest-environment jsdom
import type { SsoConnection, SsoEmailDomain, SsoSettings } from '@portal/contracts';
import { QueryClient } from '@tanstack/react-query';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderSignedInPart } from '../../../components/render-for-test';
import { SSO_SETTINGS_QUERY_KEY } from '../api/get-sso-settings';
import { SingleSignOnPage } from './single-sign-on-page';

const OIDC: SsoConnection = { protocol: 'oidc', issuer: 'https://idp.example.com', clientId: 'portal' };

const settingsWith = (overrides: Partial<SsoSettings> = {}): SsoSettings => ({
  providerId: 'org-1',
  serviceProvider: {
    oidcRedirectUrl: 'https://portal.example.com/api/auth/sso/callback/org-1',
    samlAcsUrl: 'https://portal.example.com/api/auth/sso/saml2/callback/org-1',
    samlEntityId: 'https://portal.example.com/sp/org-1',
    samlMetadataUrl: 'https://portal.example.com/sp/org-1/metadata',
  },
  connection: null,
  domain: null,
  emailDomains: [],
  allowedEmails: [],
  defaultRoleId: 'portal.developer',
  defaultApplicationScopes: null,
  enforced: false,
  signInUrl: null,
  ...overrides,
});

const pendingDomain = (domain: string, overrides: Partial<SsoEmailDomain> = {}): SsoEmailDomain => ({
  domain,
  status: 'pending',
  record: {
    type: 'TXT',
    name: `_portal-challenge.${domain}`,
    value: `portal-verification=token-of-${domain}`,
  },
  verifiedAt: null,
  checkedAt: null,
  checkError: null,
  ...overrides,
});

/** The portal's answers, by method and path; anything else (the account read again) answers {}. */
type Answer = { status: number; body: unknown };
let answers: Record<string, Answer>;
let requests: { method: string; path: string; body: unknown }[];

beforeEach(() => {
  answers = {};
  requests = [];
  // jsdom has none; Mantine's tags input watches its dropdown's size.
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      requests.push({ method, path, body: init.body ? JSON.parse(String(init.body)) : undefined });
      const { status, body } = answers[`${method} ${path}`] ?? { status: 200, body: {} };
      return new Response(JSON.stringify(body), { status });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPage(settings: SsoSettings) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(SSO_SETTINGS_QUERY_KEY, settings);
  // The page reads the settings again when it mounts.
  answers['GET /api/v1/sso'] = { status: 200, body: settings };
  return renderSignedInPart(<SingleSignOnPage accessFields={() => null} />, queryClient);
}

const type = (label: string | RegExp, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

describe('the Single sign-on page', () => {
  it('keeps letters, digits and dashes of a typed or pasted SSO domain, up to 32', () => {
    renderPage(settingsWith());
    const domain = screen.getByLabelText(/SSO domain/) as HTMLInputElement;
    fireEvent.change(domain, { target: { value: 'Acme Corp.example!' } });
    expect(domain.value).toBe('AcmeCorpexample');
    fireEvent.change(domain, { target: { value: `${'x'.repeat(30)}-_-yz` } });
    expect(domain.value).toBe(`${'x'.repeat(30)}--`);
  });

  it('saves a connection only after a test of the values on screen succeeded', async () => {
    answers['POST /api/v1/sso/connection/test'] = {
      status: 200,
      body: {
        ok: true,
        protocol: 'oidc',
        details: { authorization_endpoint: 'https://idp.example.com/authorize' },
      },
    };
    renderPage(settingsWith());
    type(/Issuer URL/, 'https://idp.example.com');
    type(/Client ID/, 'portal');
    type(/Client secret/, 's3cret');
    expect(button('Save connection').disabled).toBe(true);
    expect(screen.getByText('Test the connection before saving it.')).toBeDefined();

    fireEvent.click(button('Test connection'));
    expect(await screen.findByText('The connection works')).toBeDefined();
    expect(button('Save connection').disabled).toBe(false);
    expect(screen.getByText('authorization_endpoint')).toBeDefined();
    expect(screen.getByText('https://idp.example.com/authorize')).toBeDefined();
    expect(requests.find((request) => request.method === 'POST')?.body).toEqual({
      protocol: 'oidc',
      issuer: 'https://idp.example.com',
      clientId: 'portal',
      clientSecret: 's3cret',
    });

    // Another client ID was not tested: saving waits for a new test.
    type(/Client ID/, 'portal-2');
    expect(button('Save connection').disabled).toBe(true);
    expect(screen.queryByText('The connection works')).toBeNull();
  });

  it("shows why a test failed, in the server's words, and keeps saving off", async () => {
    answers['POST /api/v1/sso/connection/test'] = {
      status: 422,
      body: { code: 'SSO_CONNECTION_FAILED', message: 'The issuer answered 404 for its discovery document.' },
    };
    renderPage(settingsWith());
    type(/Issuer URL/, 'https://idp.example.com');
    type(/Client ID/, 'portal');
    type(/Client secret/, 's3cret');
    fireEvent.click(button('Test connection'));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('The issuer answered 404 for its discovery document.')).toBeDefined();
    expect(button('Save connection').disabled).toBe(true);
  });

  it('never shows a saved secret: the field is empty, with the hint that leaving it empty keeps it', () => {
    renderPage(settingsWith({ connection: OIDC }));
    const secret = screen.getByLabelText(/Client secret/) as HTMLInputElement;
    expect(secret.value).toBe('');
    expect(secret.type).toBe('password');
    expect(screen.getByText('Leave empty to keep the saved secret.')).toBeDefined();
    expect(screen.getByRole('button', { name: 'Remove connection' })).toBeDefined();
  });

  it('asks for a secret, without the hint, when none is saved', () => {
    renderPage(settingsWith());
    expect(screen.queryByText('Leave empty to keep the saved secret.')).toBeNull();
    type(/Issuer URL/, 'https://idp.example.com');
    type(/Client ID/, 'portal');
    fireEvent.click(button('Test connection'));
    return waitFor(() => expect(screen.getByText('Please enter the client secret.')).toBeDefined());
  });

  it('explains what requiring single sign-on does, and needs a connection first', () => {
    renderPage(settingsWith());
    const enforce = screen.getByRole('switch', { name: 'Require single sign-on' }) as HTMLInputElement;
    expect(enforce.disabled).toBe(true);
    const explanation = document.getElementById(enforce.getAttribute('aria-describedby') ?? '')?.textContent;
    expect(explanation).toContain(
      'Members can no longer sign in with a password, and invitations are turned off',
    );
    expect(explanation).toContain(
      'Super-admins keep their password, to sign in if the identity provider fails.',
    );
    expect(explanation).toContain('Connect an identity provider before requiring single sign-on.');
    cleanup();

    renderPage(settingsWith({ connection: OIDC }));
    expect(
      (screen.getByRole('switch', { name: 'Require single sign-on' }) as HTMLInputElement).disabled,
    ).toBe(false);
    expect(screen.queryByText(/Connect an identity provider before requiring single sign-on/)).toBeNull();
  });

  it('asks before requiring single sign-on, then sends it', async () => {
    answers['PUT /api/v1/sso/settings'] = {
      status: 200,
      body: settingsWith({ connection: OIDC, domain: 'acme', enforced: true }),
    };
    renderPage(settingsWith({ connection: OIDC, domain: 'acme' }));
    fireEvent.click(screen.getByRole('switch', { name: 'Require single sign-on' }));
    fireEvent.click(button('Save'));
    const dialog = await screen.findByRole('dialog', { name: 'Require single sign-on' });
    expect(requests.some((request) => request.method === 'PUT')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Require single sign-on' }));
    await waitFor(() =>
      expect(requests.find((request) => request.method === 'PUT')?.body).toMatchObject({ enforced: true }),
    );
  });

  it('shows a refused save under the field the server names', async () => {
    answers['PUT /api/v1/sso/settings'] = {
      status: 409,
      body: {
        code: 'SSO_DOMAIN_TAKEN',
        message: 'Another organization already uses this SSO domain.',
        field: 'domain',
      },
    };
    renderPage(settingsWith({ connection: OIDC }));
    type(/SSO domain/, 'acme');
    fireEvent.click(button('Save'));
    const message = await screen.findByText('Another organization already uses this SSO domain.');
    const domain = screen.getByLabelText(/SSO domain/);
    expect(domain.getAttribute('aria-invalid')).toBe('true');
    expect(domain.getAttribute('aria-describedby')?.split(' ')).toContain(message.id);
    expect(requests.find((request) => request.method === 'PUT')?.body).toEqual({
      domain: 'acme',
      emailDomains: [],
      allowedEmails: [],
      defaultRoleId: 'portal.developer',
      defaultApplicationScopes: null,
      enforced: false,
    });
  });

  it('offers the values for the identity provider and the sign-in link to copy', () => {
    renderPage(
      settingsWith({
        domain: 'acme',
        signInUrl: 'https://portal.example.com/sign-in-sso?org=acme&init=true',
      }),
    );
    expect((screen.getByLabelText('OIDC redirect URL (callback URL)') as HTMLInputElement).value).toBe(
      'https://portal.example.com/api/auth/sso/callback/org-1',
    );
    expect(screen.getByRole('button', { name: 'Copy SAML ACS URL (reply URL)' })).toBeDefined();
    expect((screen.getByLabelText('Sign-in link') as HTMLInputElement).value).toBe(
      'https://portal.example.com/sign-in-sso?org=acme&init=true',
    );
    expect(screen.getByRole('button', { name: 'Copy Sign-in link' })).toBeDefined();
  });

  it('shows each saved email domain with its state, and the TXT record to add for a pending one', () => {
    renderPage(
      settingsWith({
        emailDomains: [
          pendingDomain('acme.io'),
          {
            ...pendingDomain('acme.dev'),
            status: 'verified',
            verifiedAt: '2026-03-04T10:20:00.000Z',
            checkedAt: '2026-03-04T10:20:00.000Z',
          },
        ],
      }),
    );
    expect(
      screen.getByText(
        'Only verified domains, and the other allowed addresses, let new people join through your identity provider. People who already have a portal account join only when invited.',
      ),
    ).toBeDefined();
    const pending = screen.getByRole('listitem', { name: 'acme.io' });
    expect(within(pending).getByText('Pending')).toBeDefined();
    expect((within(pending).getByLabelText('TXT record name') as HTMLTextAreaElement).value).toBe(
      '_portal-challenge.acme.io',
    );
    expect((within(pending).getByLabelText('TXT record value') as HTMLTextAreaElement).value).toBe(
      'portal-verification=token-of-acme.io',
    );
    expect(within(pending).getByRole('button', { name: 'Copy TXT record name' })).toBeDefined();
    expect(within(pending).getByRole('button', { name: 'Copy TXT record value' })).toBeDefined();
    expect(within(pending).getByRole('status').textContent).toBe('Not checked yet.');

    const verified = screen.getByRole('listitem', { name: 'acme.dev' });
    expect(within(verified).getByText('Verified')).toBeDefined();
    expect(within(verified).queryByLabelText('TXT record value')).toBeNull();
    expect(within(verified).queryByRole('button', { name: /Verify/ })).toBeNull();
    expect(within(verified).getByRole('status').textContent).toMatch(
      /^Verified on 04 Mar 2026 at \d\d:20\.$/,
    );
  });

  it('verifies a domain on request and says what the check found, and when', async () => {
    const checkedAt = '2026-03-05T08:15:00.000Z';
    answers['POST /api/v1/sso/email-domains/acme.io/verify'] = {
      status: 200,
      body: settingsWith({
        emailDomains: [pendingDomain('acme.io', { checkedAt, checkError: 'record_mismatch' })],
      }),
    };
    renderPage(settingsWith({ emailDomains: [pendingDomain('acme.io')] }));
    const item = screen.getByRole('listitem', { name: 'acme.io' });
    fireEvent.click(within(item).getByRole('button', { name: 'Verify acme.io' }));
    await waitFor(() =>
      expect(within(item).getByRole('status').textContent).toMatch(
        /^A TXT record was found, but its value differs\. Check that it is exactly the value above\. Last checked 05 Mar 2026 at \d\d:15\.$/,
      ),
    );
    expect(requests.filter((request) => request.method === 'POST')).toEqual([
      { method: 'POST', path: '/api/v1/sso/email-domains/acme.io/verify', body: undefined },
    ]);

    answers['POST /api/v1/sso/email-domains/acme.io/verify'] = {
      status: 200,
      body: settingsWith({
        emailDomains: [{ ...pendingDomain('acme.io'), status: 'verified', verifiedAt: checkedAt, checkedAt }],
      }),
    };
    fireEvent.click(within(item).getByRole('button', { name: 'Verify acme.io' }));
    expect(await within(item).findByText('Verified')).toBeDefined();
    expect(within(item).queryByLabelText('TXT record value')).toBeNull();
  });

  it.each([
    ['record_not_found', 'The record was not found yet.'],
    ['verified_elsewhere', 'Another organization has already verified this domain; it stays with them.'],
    ['dns_unavailable', 'DNS did not answer. Please try again later.'],
  ] as const)('words the outcome %s of the last check', (checkError, words) => {
    renderPage(
      settingsWith({
        emailDomains: [pendingDomain('acme.io', { checkError, checkedAt: '2026-03-05T08:15:00.000Z' })],
      }),
    );
    expect(screen.getByRole('status').textContent).toContain(words);
  });

  it('edits and sends the email domains as names', async () => {
    answers['PUT /api/v1/sso/settings'] = { status: 200, body: settingsWith() };
    renderPage(settingsWith({ domain: 'acme', emailDomains: [pendingDomain('acme.io')] }));
    type(/SSO domain/, 'acme-corp');
    fireEvent.click(button('Save'));
    await waitFor(() =>
      expect(requests.find((request) => request.method === 'PUT')?.body).toMatchObject({
        domain: 'acme-corp',
        emailDomains: ['acme.io'],
      }),
    );
  });
});
