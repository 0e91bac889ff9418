import { PERMISSIONS, type Permission } from '@portal/contracts';
import { describe, expect, it, vi } from 'vitest';
import { decideGuard, type AccountState, type GuardInput } from './guard';

const signedIn = (
  overrides: Partial<{
    isAccountFilled: boolean;
    permissions: Permission[];
    twoFactorEnrolmentRequired: boolean;
  }> = {},
): AccountState => ({
  status: 'signed-in',
  isAccountFilled: true,
  permissions: [...PERMISSIONS],
  twoFactorEnrolmentRequired: false,
  ...overrides,
});

const input = (overrides: Partial<GuardInput>): GuardInput => ({
  pathname: '/apps/asc',
  search: '',
  access: 'VIEW_APPLICATION',
  account: signedIn(),
  googleSignInStartedOn: () => null,
  ...overrides,
});

describe('decideGuard', () => {
  it('shows a loader while the account loads', () => {
    expect(decideGuard(input({ account: { status: 'loading' } }))).toEqual({ type: 'loading' });
    expect(
      decideGuard(input({ pathname: '/login', access: 'public', account: { status: 'loading' } })),
    ).toEqual({
      type: 'loading',
    });
  });

  it('always lets /logout through', () => {
    for (const account of [
      { status: 'loading' },
      { status: 'error' },
      { status: 'signed-out' },
      signedIn(),
    ] as const) {
      expect(decideGuard(input({ pathname: '/logout', access: 'public', account }))).toEqual({
        type: 'render',
      });
    }
  });

  it('sends a signed-in user away from /login and /signup to /', () => {
    expect(decideGuard(input({ pathname: '/login', access: 'public' }))).toEqual({
      type: 'redirect',
      to: '/',
    });
    expect(decideGuard(input({ pathname: '/signup', access: 'public' }))).toEqual({
      type: 'redirect',
      to: '/',
    });
  });

  it('honours a same-site redirect parameter when a signed-in user lands on /login', () => {
    expect(
      decideGuard(input({ pathname: '/login', search: '?redirect=%2Fbilling%2Fasc', access: 'public' })),
    ).toEqual({
      type: 'redirect',
      to: '/billing/asc',
    });
    expect(
      decideGuard(
        input({ pathname: '/login', search: '?redirect=https%3A%2F%2Fevil.example', access: 'public' }),
      ),
    ).toEqual({ type: 'redirect', to: '/' });
  });

  it('renders other public pages whatever the account state', () => {
    for (const account of [
      { status: 'error' },
      { status: 'signed-out' },
      signedIn({ isAccountFilled: false }),
    ] as const) {
      expect(decideGuard(input({ pathname: '/verify-email', access: 'public', account }))).toEqual({
        type: 'render',
      });
    }
    expect(
      decideGuard(input({ pathname: '/login', access: 'public', account: { status: 'signed-out' } })),
    ).toEqual({
      type: 'render',
    });
  });

  it('sends a user without an organisation to the setup page', () => {
    const account = signedIn({ isAccountFilled: false });
    expect(decideGuard(input({ account }))).toEqual({ type: 'redirect', to: '/setup-organization' });
    expect(decideGuard(input({ pathname: '/home', access: 'login', account }))).toEqual({
      type: 'redirect',
      to: '/setup-organization',
    });
    expect(decideGuard(input({ pathname: '/setup-organization', access: 'login', account }))).toEqual({
      type: 'render',
    });
  });

  it('sends a user whose organisation is set up away from the setup page', () => {
    expect(decideGuard(input({ pathname: '/setup-organization', access: 'login' }))).toEqual({
      type: 'redirect',
      to: '/',
    });
  });

  it('forbids a page whose permission the account lacks', () => {
    const account = signedIn({ permissions: ['VIEW_DASHBOARD'] });
    expect(decideGuard(input({ pathname: '/billing/asc', access: 'VIEW_BILLING', account }))).toEqual({
      type: 'redirect',
      to: '/forbidden',
    });
    expect(decideGuard(input({ pathname: '/edit-profile', access: 'login', account }))).toEqual({
      type: 'render',
    });
  });

  it('opens the single sign-on page by its permission, as every other page', () => {
    const page = { pathname: '/single-sign-on', access: 'MANAGE_SSO' } as const;
    expect(decideGuard(input({ ...page, account: signedIn() }))).toEqual({ type: 'render' });
    const withoutIt = signedIn({ permissions: PERMISSIONS.filter((p) => p !== 'MANAGE_SSO') });
    expect(decideGuard(input({ ...page, account: withoutIt }))).toEqual({
      type: 'redirect',
      to: '/forbidden',
    });
  });

  it('treats an account listing no permissions as holding all of them', () => {
    const account = signedIn({ permissions: [] });
    expect(decideGuard(input({ pathname: '/billing/asc', access: 'VIEW_BILLING', account }))).toEqual({
      type: 'render',
    });
  });

  it('sends an unauthenticated visitor of a protected page to /login with the original path', () => {
    expect(
      decideGuard(
        input({
          pathname: '/billing/asc',
          search: '?page=2',
          access: 'VIEW_BILLING',
          account: { status: 'signed-out' },
        }),
      ),
    ).toEqual({ type: 'redirect', to: '/login?redirect=%2Fbilling%2Fasc%3Fpage%3D2' });
  });

  it('sends an SSO failure to the SSO page carrying its description', () => {
    expect(
      decideGuard(
        input({
          pathname: '/home',
          search: '?error_description=USER_LIMIT_REACHED',
          access: 'login',
          account: { status: 'signed-out' },
        }),
      ),
    ).toEqual({ type: 'redirect', to: '/sign-in-sso?error_description=USER_LIMIT_REACHED' });
  });

  it('carries the refusal code along with the description to the SSO page', () => {
    expect(
      decideGuard(
        input({
          pathname: '/home',
          search: '?error=SSO_REQUIRED&error_description=Use+your+identity+provider',
          access: 'login',
          account: { status: 'signed-out' },
        }),
      ),
    ).toEqual({
      type: 'redirect',
      to: '/sign-in-sso?error=SSO_REQUIRED&error_description=Use+your+identity+provider',
    });
  });

  it('returns a refused personal Google address to the page the Google sign-in started from', () => {
    const refused = { pathname: '/home', access: 'login', account: { status: 'signed-out' } } as const;
    expect(
      decideGuard(
        input({
          ...refused,
          search: '?error_description=CORPORATE_EMAIL_REQUIRED',
          googleSignInStartedOn: () => 'signup',
        }),
      ),
    ).toEqual({ type: 'redirect', to: '/signup?error_description=CORPORATE_EMAIL_REQUIRED' });
    expect(
      decideGuard(
        input({
          ...refused,
          search: '?error_description=PreSignUp+failed+corporate_email_required',
          googleSignInStartedOn: () => 'login',
        }),
      ),
    ).toEqual({ type: 'redirect', to: '/login?error_description=PreSignUp+failed+corporate_email_required' });
    expect(decideGuard(input({ ...refused, search: '?error_description=CORPORATE_EMAIL_REQUIRED' }))).toEqual(
      {
        type: 'redirect',
        to: '/login?error_description=CORPORATE_EMAIL_REQUIRED',
      },
    );
  });

  it('reads where a Google sign-in started only for a visitor who came back with an error', () => {
    const startedOn = vi.fn(() => 'signup' as const);
    decideGuard(input({ googleSignInStartedOn: startedOn }));
    decideGuard(
      input({
        pathname: '/login',
        access: 'public',
        account: { status: 'signed-out' },
        googleSignInStartedOn: startedOn,
      }),
    );
    decideGuard(
      input({
        pathname: '/home',
        access: 'login',
        account: { status: 'signed-out' },
        googleSignInStartedOn: startedOn,
      }),
    );
    expect(startedOn).not.toHaveBeenCalled();
    decideGuard(
      input({
        pathname: '/home',
        access: 'login',
        account: { status: 'signed-out' },
        search: '?error=access_denied',
        googleSignInStartedOn: startedOn,
      }),
    );
    expect(startedOn).toHaveBeenCalledTimes(1);
  });

  it('returns a Google sign-in that failed without a description to the page it started from', () => {
    const failed = { pathname: '/home', access: 'login', account: { status: 'signed-out' } } as const;
    expect(
      decideGuard(
        input({ ...failed, search: '?error=access_denied', googleSignInStartedOn: () => 'signup' }),
      ),
    ).toEqual({
      type: 'redirect',
      to: '/signup?error=access_denied',
    });
    // Without a Google sign-in under way, an error alone is no reason to leave the usual way to /login.
    expect(decideGuard(input({ ...failed, search: '?error=access_denied' }))).toEqual({
      type: 'redirect',
      to: '/login?redirect=%2Fhome%3Ferror%3Daccess_denied',
    });
  });

  it('sends a protected page to /error when the account could not be loaded', () => {
    expect(decideGuard(input({ account: { status: 'error' } }))).toEqual({ type: 'redirect', to: '/error' });
  });

  it('renders pages open to anyone, such as the not-found page, in every state but loading', () => {
    expect(
      decideGuard(input({ pathname: '/nowhere', access: 'any', account: { status: 'signed-out' } })),
    ).toEqual({
      type: 'render',
    });
    expect(
      decideGuard(
        input({ pathname: '/nowhere', access: 'any', account: signedIn({ isAccountFilled: false }) }),
      ),
    ).toEqual({
      type: 'render',
    });
  });

  describe('with a second factor the organisation requires and the member lacks', () => {
    const enrolling = signedIn({ twoFactorEnrolmentRequired: true });

    it('leads every signed-in page to the enrolment page, carrying where the member was going', () => {
      expect(decideGuard(input({ account: enrolling, search: '?region=eu&tab=1' }))).toEqual({
        type: 'redirect',
        to: '/two-factor-setup?redirect=%2Fapps%2Fasc%3Ftab%3D1',
      });
      expect(decideGuard(input({ pathname: '/', access: 'login', account: enrolling }))).toEqual({
        type: 'redirect',
        to: '/two-factor-setup',
      });
      // Before the organisation setup too: nothing opens without the second factor.
      expect(
        decideGuard(
          input({
            pathname: '/setup-organization',
            access: 'login',
            account: signedIn({ twoFactorEnrolmentRequired: true, isAccountFilled: false }),
          }),
        ),
      ).toEqual({ type: 'redirect', to: '/two-factor-setup?redirect=%2Fsetup-organization' });
    });

    it('shows the enrolment page, and still lets /logout and pages open to anyone through', () => {
      expect(
        decideGuard(input({ pathname: '/two-factor-setup', access: 'login', account: enrolling })),
      ).toEqual({ type: 'render' });
      expect(decideGuard(input({ pathname: '/logout', access: 'public', account: enrolling }))).toEqual({
        type: 'render',
      });
      expect(decideGuard(input({ pathname: '/nowhere', access: 'any', account: enrolling }))).toEqual({
        type: 'render',
      });
    });

    it('sends the member on from the enrolment page once it is done', () => {
      expect(
        decideGuard(
          input({ pathname: '/two-factor-setup', search: '?redirect=%2Fbilling%2Fasc', access: 'login' }),
        ),
      ).toEqual({ type: 'redirect', to: '/billing/asc' });
      expect(
        decideGuard(
          input({ pathname: '/two-factor-setup', search: '?redirect=https://evil.example', access: 'login' }),
        ),
      ).toEqual({ type: 'redirect', to: '/' });
    });
  });

  it('sends a signed-in user away from the second step of sign-in, where they were going', () => {
    expect(
      decideGuard(
        input({ pathname: '/two-factor', search: '?redirect=%2Fmanage-members', access: 'public' }),
      ),
    ).toEqual({ type: 'redirect', to: '/manage-members' });
    expect(
      decideGuard(input({ pathname: '/two-factor', access: 'public', account: { status: 'signed-out' } })),
    ).toEqual({ type: 'render' });
  });
});
