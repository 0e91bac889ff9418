import {
  AccountSchema,
  FreeCreditTiersResponseSchema,
  ROLE_PERMISSIONS,
  TaxRatesResponseSchema,
  messages,
  vatOptionOf,
  type Account,
} from '@portal/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema.ts';
import {
  INITIAL_SETUP,
  useTestApp,
  expectApiError,
  jsonRequest,
  setUpOrganization,
  signUpVerifiedUser,
} from './helper.ts';

const DAY_MS = 86_400_000;

const BILLING = {
  organization: 'Acme Pte Ltd',
  firstName: 'Ann',
  lastName: 'Lee',
  billingName: 'Acme Finance',
  billingAddress: '1 Raffles Place',
  billingAddress2: '#20-01',
  billingCountry: 'SG',
  billingState: '01',
  billingCity: 'Singapore',
  billingZipCode: '048616',
  vatNumber: 'M2-1234567-8',
};

const testApp = useTestApp();
let app: FastifyInstance;

beforeAll(() => {
  app = testApp.app;
});

async function getMe(cookie: string): Promise<Account> {
  const response = await app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, cookie));
  expect(response.statusCode).toBe(200);
  return AccountSchema.parse(response.json());
}

function putAccount(cookie: string, body: unknown) {
  return app.inject(jsonRequest('PUT', '/api/v1/accounts', body, cookie));
}

function omit<T extends object>(value: T, key: keyof T) {
  const copy = { ...value };
  delete copy[key];
  return copy;
}

describe('the account before setup', () => {
  it('is an unfilled organisation whose user is its super-admin with the role table permissions', async () => {
    const cookie = await signUpVerifiedUser(app, 'first@acme.io');
    const account = await getMe(cookie);
    expect(account).toMatchObject({
      isAccountFilled: false,
      userEmail: 'first@acme.io',
      email: 'first@acme.io',
      roles: [{ id: 'portal.super-admin' }],
      accountStatus: 'active',
      contractType: 'payg',
      trialEndAt: null,
      havePaymentProfile: 'false',
    });
    expect(account.permissions).toEqual([...ROLE_PERMISSIONS['portal.super-admin']]);
    expect(account.lastLogin).toBeGreaterThan(Date.now() - 60_000);
    expect(account.organizationId).toBeTruthy();
    expect(account.memberId).toBeTruthy();
  });

  it('is one organisation however many first requests arrive at once', async () => {
    const cookie = await signUpVerifiedUser(app, 'concurrent@acme.io');
    const accounts = await Promise.all([getMe(cookie), getMe(cookie), getMe(cookie)]);
    expect(new Set(accounts.map((a) => a.organizationId)).size).toBe(1);
    expect((await getMe(cookie)).organizationId).toBe(accounts[0]?.organizationId);
  });
});

describe('initial setup (PUT /api/v1/accounts before setup)', () => {
  let cookie: string;

  beforeAll(async () => {
    cookie = await signUpVerifiedUser(app, 'setup@acme.io');
  });

  it.each([
    ['organization', omit(INITIAL_SETUP, 'organization'), messages['validation.organization.required']],
    ['organization', { ...INITIAL_SETUP, organization: '   ' }, messages['validation.organization.required']],
    ['firstName', omit(INITIAL_SETUP, 'firstName'), messages['validation.firstName.required']],
    ['lastName', omit(INITIAL_SETUP, 'lastName'), messages['validation.lastName.required']],
    ['billingCountry', omit(INITIAL_SETUP, 'billingCountry'), messages['validation.billingCountry.required']],
    ['billingCountry', { ...INITIAL_SETUP, billingCountry: 'ZZ' }, messages['errors.unknownCountry']],
    ['billingCountry', { ...INITIAL_SETUP, billingCountry: 'Singapore' }, messages['errors.unknownCountry']],
    ['acceptedPrivacyPolicy', { ...INITIAL_SETUP, acceptedPrivacyPolicy: false }, messages['errors.legalNotAccepted']],
    ['acceptedTerms', omit(INITIAL_SETUP, 'acceptedTerms'), messages['errors.legalNotAccepted']],
    ['acceptedTerms', { ...INITIAL_SETUP, acceptedTerms: 'true' }, messages['errors.legalNotAccepted']],
  ])('refuses a body with a bad %s', async (field, body, message) => {
    const response = await putAccount(cookie, body);
    const error = expectApiError(response, 400, 'VALIDATION_ERROR');
    expect(error.field).toBe(field);
    expect(error.fields).toContainEqual({ field, message });
    expect((await getMe(cookie)).isAccountFilled).toBe(false);
  });

  it('fills the organisation and starts a 15-day PAYG trial', async () => {
    const before = Date.now();
    const response = await putAccount(cookie, INITIAL_SETUP);
    expect(response.statusCode).toBe(200);
    const account = AccountSchema.parse(response.json());
    expect(account).toMatchObject({
      isAccountFilled: true,
      organization: 'Acme',
      firstName: 'Ann',
      lastName: 'Lee',
      billingCountry: 'SG',
      contractType: 'payg',
      accountStatus: 'active',
    });
    const trialEnd = Date.parse(account.trialEndAt ?? '');
    expect(trialEnd).toBeGreaterThanOrEqual(before + 15 * DAY_MS);
    expect(trialEnd).toBeLessThanOrEqual(Date.now() + 15 * DAY_MS);
    // The person named in the form becomes the member's display name.
    expect(account.displayName).toBe('Ann Lee');
    expect(await getMe(cookie)).toEqual(account);
  });

  it('treats a second setup as a billing update, which the setup fields do not satisfy', async () => {
    const trialEndAt = (await getMe(cookie)).trialEndAt;
    const response = await putAccount(cookie, { ...INITIAL_SETUP, organization: 'Another' });
    const error = expectApiError(response, 400, 'VALIDATION_ERROR');
    expect(error.fields?.map((f) => f.field)).toEqual(
      expect.arrayContaining(['billingAddress', 'billingState', 'billingZipCode']),
    );
    const account = await getMe(cookie);
    expect(account.organization).toBe('Acme');
    expect(account.trialEndAt).toBe(trialEndAt);
  });
});

describe('billing update (PUT /api/v1/accounts after setup)', () => {
  let cookie: string;

  beforeAll(async () => {
    cookie = await setUpOrganization(app, 'billing@acme.io');
  });

  it('names every missing required field and none of the optional ones', async () => {
    const error = expectApiError(await putAccount(cookie, {}), 400, 'VALIDATION_ERROR');
    const fields = error.fields?.map((f) => f.field) ?? [];
    expect(fields.sort()).toEqual(
      ['billingAddress', 'billingCountry', 'billingState', 'billingZipCode', 'firstName', 'lastName', 'organization'].sort(),
    );
    expect(error.fields).toContainEqual({ field: 'billingZipCode', message: messages['validation.billingZipCode.required'] });
  });

  it.each([
    ['billingAddress', { ...BILLING, billingAddress: ' ' }],
    ['billingZipCode', omit(BILLING, 'billingZipCode')],
    ['billingCountry', { ...BILLING, billingCountry: 'ZZ' }],
    ['billingState', { ...BILLING, billingState: 'CA' }],
    ['billingState', { ...BILLING, billingCountry: 'US', billingState: '01' }],
    ['organization', { ...BILLING, organization: 'x'.repeat(300) }],
  ])('refuses a bad %s and keeps the stored details', async (field, body) => {
    const before = await getMe(cookie);
    const error = expectApiError(await putAccount(cookie, body), 400, 'VALIDATION_ERROR');
    expect(error.field).toBe(field);
    expect(await getMe(cookie)).toEqual(before);
  });

  it('answers the unknown state with its own wording', async () => {
    const error = expectApiError(await putAccount(cookie, { ...BILLING, billingState: 'CA' }), 400);
    expect(error.fields).toEqual([{ field: 'billingState', message: messages['errors.unknownState'] }]);
  });

  it('stores the billing details, with a VAT number for a registered organisation', async () => {
    const response = await putAccount(cookie, BILLING);
    expect(response.statusCode).toBe(200);
    const account = AccountSchema.parse(response.json());
    expect(account).toMatchObject(BILLING);
    expect(vatOptionOf(account)).toBe('registered');
    expect(await getMe(cookie)).toEqual(account);

    const us = await putAccount(cookie, { ...BILLING, billingCountry: 'US', billingState: 'CA', billingCity: '' });
    expect(us.statusCode).toBe(200);
    expect(us.json()).toMatchObject({ billingCountry: 'US', billingState: 'CA', billingCity: '' });
  });

  it.each([
    ['an empty VAT number', { ...BILLING, vatNumber: '' }],
    ['a blank VAT number', { ...BILLING, vatNumber: '   ' }],
    ['no VAT number', omit(BILLING, 'vatNumber')],
    ['the registered option without a number', { ...BILLING, vatOption: 'registered', vatNumber: '' }],
  ])('treats %s as unregistered', async (_label, body) => {
    await putAccount(cookie, BILLING);
    const response = await putAccount(cookie, body);
    expect(response.statusCode).toBe(200);
    const account = AccountSchema.parse(response.json());
    expect(account.vatNumber).toBe('');
    expect(vatOptionOf(account)).toBe('unregistered');
  });

  it('is refused to a member without VIEW_BILLING', async () => {
    const cookie = await signUpVerifiedUser(app, 'admin@acme.io');
    const [user] = await testApp.database.db
      .select({ id: schema.user.id })
      .from(schema.user)
      .where(eq(schema.user.email, 'admin@acme.io'));
    const organizationId = crypto.randomUUID();
    await testApp.database.db.insert(schema.organization).values({ id: organizationId, email: 'owner@acme.io', isFilled: true });
    await testApp.database.db.insert(schema.member).values({
      id: crypto.randomUUID(),
      organizationId,
      userId: user!.id,
      displayName: 'Admin',
      roleId: 'portal.admin',
    });
    expect((await getMe(cookie)).permissions).not.toContain('VIEW_BILLING');
    expectApiError(await putAccount(cookie, BILLING), 403, 'FORBIDDEN');
  });

  it('is refused while the account is inactive', async () => {
    const cookie = await setUpOrganization(app, 'inactive@acme.io');
    const { organizationId } = await getMe(cookie);
    await testApp.database.db
      .update(schema.organization)
      .set({ accountStatus: 'inactive', inactiveReason: 'billing' })
      .where(eq(schema.organization.id, organizationId));
    expectApiError(await putAccount(cookie, BILLING), 403, 'FORBIDDEN');
  });
});

describe('tax rates and free-credit tiers', () => {
  let cookie: string;

  beforeAll(async () => {
    cookie = await setUpOrganization(app, 'rates@acme.io');
  });

  it('answers the seeded tax rates with a default rate', async () => {
    const response = await app.inject(jsonRequest('GET', '/api/v1/accounts/tax', undefined, cookie));
    expect(response.statusCode).toBe(200);
    const tax = TaxRatesResponseSchema.parse(response.json());
    expect(tax).toEqual({
      defaultRate: 0,
      rates: { SG: 9, GB: 20, DE: 19, FR: 20, NL: 21, AU: 10, IN: 18, JP: 10, TH: 7 },
    });
  });

  it('answers the seeded free-credit tiers in USD, lowest first', async () => {
    const response = await app.inject(jsonRequest('GET', '/api/v1/accounts/freecredits', undefined, cookie));
    expect(response.statusCode).toBe(200);
    expect(FreeCreditTiersResponseSchema.parse(response.json())).toEqual([
      { start: 1000, credit: 50 },
      { start: 5000, credit: 500 },
      { start: 10000, credit: 1500 },
    ]);
  });

  it.each(['/api/v1/accounts/tax', '/api/v1/accounts/freecredits', '/api/v1/accounts/me'])(
    'answers %s only to a signed-in user',
    async (url) => {
      expectApiError(await app.inject({ method: 'GET', url }), 401, 'UNAUTHORIZED');
    },
  );
});
