// @vitest-environment jsdom
import { messages } from '@portal/contracts';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PUBLIC_CONFIG_FOR_TEST } from './public-config-for-test';

const CORPORATE = messages['signupForm.email.validation.corporate.lambda.error'];
const STRONG_PASSWORD = 'Str0ng!Passw0rd';

/** The sign-up page, with the portal refusing every sign-up as the server does a free-mail address. */
async function renderSignup() {
  const signUps: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string, init?: RequestInit) => {
      if (path === '/api/v1/config') return new Response(JSON.stringify(PUBLIC_CONFIG_FOR_TEST));
      if (path === '/api/auth/sign-up/email') {
        signUps.push(JSON.parse(String(init?.body)));
        const refusal = { code: 'CORPORATE_EMAIL_REQUIRED', message: CORPORATE, field: 'email' };
        return new Response(JSON.stringify(refusal), { status: 400 });
      }
      return new Response('{}', { status: 404 });
    }),
  );
  vi.resetModules();
  const { SignupPage } = await import('./signup-page');
  render(
    <MemoryRouter initialEntries={['/signup']}>
      <SignupPage />
    </MemoryRouter>,
  );
  return { signUps };
}

async function fillIn(email: string) {
  const field = screen.getByLabelText('Corporate email');
  // The form loads its schema when a field is first focused.
  fireEvent.focus(field);
  fireEvent.change(field, { target: { value: email } });
  fireEvent.blur(field);
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: STRONG_PASSWORD } });
  const submit = screen.getByRole('button', { name: 'Sign up' });
  await waitFor(() => expect(submit.hasAttribute('disabled')).toBe(email.endsWith('yahoo.co.jp')), {
    timeout: 10_000,
  });
  return submit;
}

beforeEach(() => vi.unstubAllGlobals());
afterEach(cleanup);

// The first render loads the page's modules and the schema: room for a busy machine.
describe('the sign-up form and free mail', { timeout: 30_000 }, () => {
  it('refuses a domain of the spec seven at once, without asking the server', async () => {
    const { signUps } = await renderSignup();
    await fillIn('dev@yahoo.co.jp');
    expect(await screen.findByText(CORPORATE, {}, { timeout: 10_000 })).toBeDefined();
    expect(signUps).toEqual([]);
  });

  it('lets a company subdomain named like a provider through: outlook.acme.com is not outlook.com', async () => {
    await renderSignup();
    await fillIn('dev@outlook.acme.com');
    expect(screen.queryByText(CORPORATE)).toBeNull();
  });

  it('shows the corporate wording on the email field when the server refuses an address of its full list', async () => {
    const { signUps } = await renderSignup();
    const submit = await fillIn('dev@proton.me');
    fireEvent.click(submit);
    expect(await screen.findByText(CORPORATE, {}, { timeout: 10_000 })).toBeDefined();
    expect(signUps).toEqual([expect.objectContaining({ email: 'dev@proton.me' })]);
  });
});
