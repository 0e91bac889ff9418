// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PUBLIC_CONFIG_FOR_TEST } from './public-config-for-test';

const CONFIG = {
  ...PUBLIC_CONFIG_FOR_TEST,
  // Google's button shows once the configuration has arrived.
  googleSignIn: true,
};

/** The login page with the portal answering the public configuration and the password sign-in. */
async function renderLogin({
  ssoSignIn,
  signIn,
  at = '/login',
}: {
  ssoSignIn: boolean;
  signIn?: { status: number; body: unknown };
  at?: string;
}) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string) => {
      if (path === '/api/v1/config') return new Response(JSON.stringify({ ...CONFIG, ssoSignIn }));
      if (path === '/api/auth/sign-in/email' && signIn)
        return new Response(JSON.stringify(signIn.body), { status: signIn.status });
      return new Response('{}', { status: 404 });
    }),
  );
  // The public configuration is loaded once per page load: each test loads the page's modules anew.
  vi.resetModules();
  const { LoginPage } = await import('./login-page');
  render(
    <MemoryRouter initialEntries={[at]}>
      <LoginPage />
    </MemoryRouter>,
  );
}

beforeEach(() => vi.unstubAllGlobals());
afterEach(cleanup);

describe('the login page and single sign-on', () => {
  it('offers single sign-on only when the portal has an organisation that uses it', async () => {
    await renderLogin({ ssoSignIn: true });
    expect(await screen.findByRole('link', { name: 'Sign in with SSO' })).toBeDefined();
    cleanup();

    await renderLogin({ ssoSignIn: false });
    await screen.findByRole('button', { name: 'Continue with Google' });
    expect(screen.queryByRole('link', { name: 'Sign in with SSO' })).toBeNull();
  });

  it('sends a member whose organisation requires single sign-on to it', async () => {
    await renderLogin({
      ssoSignIn: false,
      signIn: { status: 403, body: { code: 'SSO_REQUIRED', message: 'Use SSO.' } },
    });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'dev@acme.io' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'password1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Your organization signs in with single sign-on.');
    expect(within(alert).getByRole('link', { name: 'Sign in with SSO' }).getAttribute('href')).toBe(
      '/sign-in-sso',
    );
  });
});

describe('the login page before the sign-in call', () => {
  it('says Email or password is missing and makes no call when one is empty', async () => {
    await renderLogin({ ssoSignIn: false, signIn: { status: 200, body: {} } });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'dev@acme.io' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Email or password is missing');
    expect(vi.mocked(fetch).mock.calls.map(([path]) => path)).not.toContain('/api/auth/sign-in/email');
  });
});

describe('the login page after a Google sign-in that did not finish', () => {
  it('says it was cancelled, or did not finish, from the error Google came back with', async () => {
    await renderLogin({ ssoSignIn: false, at: '/login?error=access_denied' });
    expect(await screen.findByText(/Google sign-in was cancelled/)).toBeDefined();
    cleanup();

    await renderLogin({ ssoSignIn: false, at: '/login?error=state_mismatch' });
    expect(await screen.findByText('Google sign-in did not finish. Please try again.')).toBeDefined();
    cleanup();

    await renderLogin({ ssoSignIn: false });
    await screen.findByRole('button', { name: 'Continue with Google' });
    expect(screen.queryByText(/Google sign-in/)).toBeNull();
  });
});
