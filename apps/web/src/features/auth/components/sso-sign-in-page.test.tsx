// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { SsoSignInPage } from './sso-sign-in-page';

const GENERAL =
  'Single sign-on could not sign you in. Please try again; if it keeps failing, ask your administrator.';

function renderAt(query: Record<string, string>) {
  render(
    <MemoryRouter initialEntries={[`/sign-in-sso?${new URLSearchParams(query)}`]}>
      <SsoSignInPage />
    </MemoryRouter>,
  );
}

afterEach(cleanup);

describe('/sign-in-sso after a refused sign-in', () => {
  it.each([
    [
      { error: 'USER_LIMIT_REACHED', error_description: 'USER_LIMIT_REACHED: ignored' },
      'Your organization has reached its user limit. Contact your administrator.',
    ],
    [
      { error_description: 'NOT_IN_WHITELIST: ignored' },
      'Your email is not allowed to sign in to this organization. Contact your administrator.',
    ],
    [
      { error: 'SSO_SIGN_IN_REFUSED', error_description: 'SSO_SIGN_IN_REFUSED: ignored' },
      'Single sign-on could not sign you in to this organization. Ask your administrator to invite you.',
    ],
    [
      { error_description: 'SSO_REQUIRED' },
      'Your organization signs in with single sign-on. Use "Sign in with SSO" and your organization domain.',
    ],
    [
      { error: 'SSO_ORGANIZATION_NOT_FOUND', error_description: 'Not found' },
      'No organization signs in with single sign-on under this domain.',
    ],
    [
      { error_description: 'corporate_email_required: ignored' },
      'Please sign up with your corporate email. Personal email addresses are not allowed.',
    ],
  ])('shows the wording of a known code (%j)', (query, wording) => {
    renderAt(query);
    expect(screen.getByRole('alert').textContent).toContain(wording);
    expect(screen.getByRole('alert').textContent).not.toContain('ignored');
  });

  it('never shows the text of an unknown refusal: a phishing line gets the general message', () => {
    const phishing =
      'Your account is locked. Call +1 555 0100 or sign in at https://evil.example/portal to unlock it.';
    renderAt({ error_description: phishing });
    expect(screen.getByRole('alert').textContent).toBe(GENERAL);
    expect(document.body.textContent).not.toContain('evil.example');
    cleanup();

    // A known code later in the text, or an unknown code in front of it, is no code of the portal's.
    renderAt({ error: 'access_denied', error_description: `${phishing} NOT_IN_WHITELIST` });
    expect(screen.getByRole('alert').textContent).toBe(GENERAL);
    expect(document.body.textContent).not.toContain('+1 555 0100');
  });

  it('shows nothing when no sign-in was refused', () => {
    renderAt({ org: 'acme' });
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
