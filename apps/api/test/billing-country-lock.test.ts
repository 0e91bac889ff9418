import type { Account, BillingCountryLock, OperatorOrganization, TopUpResponse } from '@portal/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXIT_OK } from '../src/cli/portal-cli.ts';
import { BILLING_UPDATE } from './access-outcomes.ts';
import { billMayLeftUnpaid, organizationRow } from './billing-fixtures.ts';
import { addSandboxCard, sandboxCardToken, topUpWithSandboxCard } from './card-fixtures.ts';
import { expectApiError, jsonRequest, setUpOrganization, useTestApp } from './helper.ts';
import { operatorApi, operatorCli } from './operator-fixtures.ts';

/*
 * Tax follows the billing country (issue 23, finding 10; decision 030): once a card payment was
 * taxed by it, members cannot change it, so editing the billing form cannot turn Singapore's 9 %
 * into the 0 % of a country without a rate. Before any payment it changes freely; an operator
 * changes it at any time.
 */
const OPERATOR_TOKEN = 'operator-token-for-the-billing-country-test';
const t = useTestApp({ OPERATOR_TOKEN });
const operator = operatorApi(t, OPERATOR_TOKEN);
const cli = operatorCli(t, OPERATOR_TOKEN);

/** The billing form filled in for Singapore. */
const BILLING = BILLING_UPDATE;
const IN_THE_US = { ...BILLING, billingCountry: 'US', billingState: 'CA', billingZipCode: '94105' };
const DECLINED_CARD = '4000000000000002';

interface Owner {
  cookie: string;
  email: string;
  organizationId: string;
}

let owners = 0;
/** A set-up organisation whose billing form is filled in for Singapore. */
async function newOwner(label: string): Promise<Owner> {
  const email = `${label}-${(owners += 1)}@taxed.example.com`;
  const cookie = await setUpOrganization(t.app, email);
  const saved = await putBilling(cookie, BILLING);
  expect(saved.statusCode, saved.body).toBe(200);
  return { cookie, email, organizationId: (saved.json() as Account).organizationId };
}

function putBilling(cookie: string, body: typeof BILLING) {
  return t.app.inject(jsonRequest('PUT', '/api/v1/accounts', body, cookie));
}

async function lockOf(owner: Owner): Promise<BillingCountryLock> {
  const response = await t.app.inject(
    jsonRequest('GET', '/api/v1/accounts/billing-country', undefined, owner.cookie),
  );
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as BillingCountryLock;
}

async function topUp(owner: Owner, amount: number): Promise<TopUpResponse> {
  const response = await topUpWithSandboxCard(t.app, owner.cookie, amount);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as TopUpResponse;
}

beforeAll(() => cli.listen());

describe('the billing country before any payment', () => {
  it('changes freely, and a refused card fixes nothing', async () => {
    const owner = await newOwner('before-payment');
    expect(await lockOf(owner)).toEqual({ billingCountry: 'SG', locked: false });
    const refused = await t.app.inject(
      jsonRequest(
        'POST',
        '/api/v1/accounts/topup',
        { amount: 100, token: await sandboxCardToken(t.app, owner.cookie, DECLINED_CARD) },
        owner.cookie,
      ),
    );
    expect(refused.statusCode, refused.body).toBe(402);
    expect(await lockOf(owner)).toEqual({ billingCountry: 'SG', locked: false });

    const moved = await putBilling(owner.cookie, IN_THE_US);
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await lockOf(owner)).toEqual({ billingCountry: 'US', locked: false });
    expect((await topUp(owner, 100)).tax).toBe(0);
  });
});

describe('the billing country after a paid top-up', () => {
  it('cannot be changed by members (409), the rest of the form still saves, and the next top-up is taxed by it', async () => {
    const owner = await newOwner('after-top-up');
    expect((await topUp(owner, 100)).tax).toBe(9);
    expect(await lockOf(owner)).toEqual({ billingCountry: 'SG', locked: true });

    const refused = expectApiError(await putBilling(owner.cookie, IN_THE_US), 409, 'BILLING_COUNTRY_LOCKED');
    expect(refused.field).toBe('billingCountry');
    expect(await organizationRow(t.database.db, owner.organizationId)).toMatchObject({
      billingCountry: 'SG',
      billingState: '01',
      billingZipCode: '048616',
    });

    const kept = await putBilling(owner.cookie, { ...BILLING, billingAddress: '8 Marina View' });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json() as Account).toMatchObject({ billingCountry: 'SG', billingAddress: '8 Marina View' });

    expect(await topUp(owner, 100)).toMatchObject({ tax: 9, total: 109 });
  });
});

describe('the billing country after an invoice paid by card', () => {
  it('is fixed too', async () => {
    const owner = await newOwner('after-invoice');
    await billMayLeftUnpaid(t.database.db, owner.organizationId);
    // The account is inactive for the unpaid charge: the card added pays it.
    const added = await addSandboxCard(t.app, owner.cookie);
    expect(added.statusCode, added.body).toBe(201);
    expect(await lockOf(owner)).toEqual({ billingCountry: 'SG', locked: true });
    expectApiError(await putBilling(owner.cookie, IN_THE_US), 409, 'BILLING_COUNTRY_LOCKED');
  });
});

describe("the operator's billing country", () => {
  it('changes a fixed country, clears a state of the old one, and the next top-up is taxed by it', async () => {
    const owner = await newOwner('operator-country');
    await topUp(owner, 100);

    const set = await cli.run('org', 'set-billing-country', owner.email, 'US');
    expect(set.code, set.stderr).toBe(EXIT_OK);
    expect(set.stdout).toMatch(/^Billing country\s+US, fixed by a card payment$/m);
    expect(await organizationRow(t.database.db, owner.organizationId)).toMatchObject({
      billingCountry: 'US',
      billingState: '',
    });
    expect(await lockOf(owner)).toEqual({ billingCountry: 'US', locked: true });
    expect(await topUp(owner, 100)).toMatchObject({ tax: 0, total: 100 });

    // The member picks the state of the new country; the country stays the operator's.
    const completed = await putBilling(owner.cookie, IN_THE_US);
    expect(completed.statusCode, completed.body).toBe(200);
  });

  it('keeps a state the new country has, takes the code in any case, and refuses an unknown country naming the field', async () => {
    const owner = await newOwner('operator-country-api');
    const same = await operator('PUT', `/organizations/${owner.organizationId}/billing-country`, {
      country: 'sg',
    });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json() as OperatorOrganization).toMatchObject({
      billingCountry: 'SG',
      billingCountryLocked: false,
    });
    expect((await organizationRow(t.database.db, owner.organizationId)).billingState).toBe('01');

    for (const country of ['ZZ', 'SGP', '']) {
      const refused = expectApiError(
        await operator('PUT', `/organizations/${owner.organizationId}/billing-country`, { country }),
        400,
        'VALIDATION_ERROR',
      );
      expect(refused.field).toBe('country');
    }
    expect((await organizationRow(t.database.db, owner.organizationId)).billingCountry).toBe('SG');
  });
});
