import crypto from 'node:crypto';
import { test as base, expect, type APIRequestContext, type APIResponse } from '@playwright/test';
import type { InitialSetupForm } from '@portal/contracts';
import { linkIn, waitForMail } from './mail-store.ts';

export const STRONG_PASSWORD = 'Str0ng!Passw0rd';
export const VERIFICATION_SUBJECT = /verify your email/i;
export const RESET_SUBJECT = /reset your .* password/i;

export interface TestUser {
  email: string;
  password: string;
}

export const ACME: InitialSetupForm = { organization: 'Acme Rockets', firstName: 'Ada', lastName: 'Lovelace', billingCountry: 'SG' };

/** A corporate address no other test uses. */
export function uniqueEmail(label: string): string {
  return `${label}-${Date.now().toString(36)}${crypto.randomBytes(3).toString('hex')}@acme.io`;
}

async function ensureOk(response: APIResponse, what: string) {
  if (!response.ok()) throw new Error(`${what} answered ${response.status()}: ${await response.text()}`);
}

/**
 * Prepares users through the portal's own HTTP API, as a browser on its origin would: the session
 * cookie lands in the page's browser context, so the page is signed in too.
 */
export class Users {
  constructor(
    private readonly request: APIRequestContext,
    private readonly origin: string,
  ) {}

  private post(url: string, data: unknown) {
    return this.request.post(url, { data, headers: { origin: this.origin } });
  }

  /** Signs up (verified from the mailed code unless `verified` is false). */
  async create(options: { label?: string; verified?: boolean } = {}): Promise<TestUser> {
    const user = { email: uniqueEmail(options.label ?? 'user'), password: STRONG_PASSWORD };
    await ensureOk(await this.post('/api/auth/sign-up/email', { ...user, name: user.email.split('@')[0] }), 'sign-up');
    if (options.verified !== false) {
      const mail = await waitForMail(user.email, VERIFICATION_SUBJECT);
      const otp = linkIn(mail, '/confirm-user').searchParams.get('confirmation_code');
      await ensureOk(await this.post('/api/auth/email-otp/verify-email', { email: user.email, otp }), 'verify-email');
    }
    return user;
  }

  async signIn(user: TestUser) {
    await ensureOk(await this.post('/api/auth/sign-in/email', { email: user.email, password: user.password }), 'sign-in');
  }

  /** The initial organisation setup with both legal documents accepted, for the signed-in user. */
  async setUpOrganization(fields: InitialSetupForm = ACME) {
    const response = await this.request.put('/api/v1/accounts', {
      data: { ...fields, acceptedPrivacyPolicy: true, acceptedTerms: true },
      headers: { origin: this.origin },
    });
    await ensureOk(response, 'organisation setup');
  }

  /** A verified user, signed in in this page's browser context, with or without a set-up organisation. */
  async signedIn(options: { organization?: InitialSetupForm | null; label?: string } = {}): Promise<TestUser> {
    const user = await this.create({ label: options.label });
    await this.signIn(user);
    if (options.organization !== null) await this.setUpOrganization(options.organization ?? ACME);
    return user;
  }
}

export const test = base.extend<{ users: Users }>({
  users: async ({ page, baseURL }, use) => {
    if (!baseURL) throw new Error('baseURL is not set: run the tests through e2e/playwright.config.ts');
    await use(new Users(page.request, baseURL));
  },
});

export { expect };
