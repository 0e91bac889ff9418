import type {
  AddPaymentProfileResponse,
  ListOperatorOrganizationsResponse,
  OperatorOrganization,
  TopUpResponse,
} from '@portal/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXIT_OK } from '../src/cli/portal-cli.ts';
import { hasOpenCharges } from '../src/modules/ledger/ledger.repository.ts';
import { billMayLeftUnpaid, organizationRow } from './billing-fixtures.ts';
import { addSandboxCard, topUpWithSandboxCard } from './card-fixtures.ts';
import { jsonRequest, setUpOrganization, useTestApp } from './helper.ts';
import { operatorApi, operatorCli } from './operator-fixtures.ts';

/*
 * Why an account is inactive (issue 23, finding 2): a billing run's unpaid charge (billing), which a
 * payment or a new card ends, or an operator's suspension (operator), which only an operator ends.
 * Before, a card added to a suspended account made it active again.
 */
const OPERATOR_TOKEN = 'operator-token-for-the-suspension-test';
const t = useTestApp({ OPERATOR_TOKEN });
const operator = operatorApi(t, OPERATOR_TOKEN);
const cli = operatorCli(t, OPERATOR_TOKEN);

interface Owner {
  cookie: string;
  email: string;
  organizationId: string;
}

let owners = 0;
async function newOwner(label: string): Promise<Owner> {
  const email = `${label}-${(owners += 1)}@suspended.example.com`;
  const cookie = await setUpOrganization(t.app, email);
  const me = await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, cookie));
  return { cookie, email, organizationId: (me.json() as { organizationId: string }).organizationId };
}

async function setStatus(owner: Owner, status: 'active' | 'inactive'): Promise<OperatorOrganization> {
  const response = await operator('PUT', `/organizations/${owner.organizationId}/status`, { status });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as OperatorOrganization;
}

/** The account as its members and the database see it. */
async function accountOf(owner: Owner) {
  const me = await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, owner.cookie));
  const row = await organizationRow(t.database.db, owner.organizationId);
  return {
    shown: (me.json() as { accountStatus: string }).accountStatus,
    accountStatus: row.accountStatus,
    inactiveReason: row.inactiveReason,
  };
}

/** A billing run leaves a charge unpaid on an empty balance: inactive for billing. */
const leaveChargeUnpaid = (owner: Owner) => billMayLeftUnpaid(t.database.db, owner.organizationId);

async function addCard(owner: Owner) {
  const added = await addSandboxCard(t.app, owner.cookie);
  expect(added.statusCode, added.body).toBe(201);
  return added.json() as AddPaymentProfileResponse;
}

beforeAll(() => cli.listen());

describe("an operator's suspension", () => {
  it('is not lifted by a new card; only an operator makes the account active again', async () => {
    const owner = await newOwner('suspended-card');
    const suspended = await setStatus(owner, 'inactive');
    expect(suspended).toMatchObject({ accountStatus: 'inactive', inactiveReason: 'operator' });

    expect((await addCard(owner)).accountReactivated).toBe(false);
    expect(await accountOf(owner)).toEqual({
      shown: 'inactive',
      accountStatus: 'inactive',
      inactiveReason: 'operator',
    });

    expect(await setStatus(owner, 'active')).toMatchObject({ accountStatus: 'active', inactiveReason: null });
    expect(await accountOf(owner)).toEqual({
      shown: 'active',
      accountStatus: 'active',
      inactiveReason: null,
    });
  });

  it('wins over billing inactivity: a card then pays what is due, and the account stays suspended', async () => {
    const owner = await newOwner('suspended-over-billing');
    const run = await leaveChargeUnpaid(owner);
    expect(run.becameInactive).toEqual([owner.organizationId]);
    expect((await accountOf(owner)).inactiveReason).toBe('billing');

    expect(await setStatus(owner, 'inactive')).toMatchObject({
      accountStatus: 'inactive',
      inactiveReason: 'operator',
    });
    expect((await addCard(owner)).accountReactivated).toBe(false);
    // The debt is paid all the same; the suspension is the operator's to lift.
    expect(await hasOpenCharges(t.database.db, owner.organizationId)).toBe(false);
    expect(await accountOf(owner)).toMatchObject({ accountStatus: 'inactive', inactiveReason: 'operator' });

    expect(await setStatus(owner, 'active')).toMatchObject({ accountStatus: 'active', inactiveReason: null });
  });

  it('is not lifted by a top-up that pays what is due', async () => {
    const owner = await newOwner('suspended-top-up');
    await leaveChargeUnpaid(owner);
    await setStatus(owner, 'inactive');
    const topUp = await topUpWithSandboxCard(t.app, owner.cookie, 100);
    expect(topUp.statusCode, topUp.body).toBe(201);
    expect((topUp.json() as TopUpResponse).accountReactivated).toBe(false);
    expect(await hasOpenCharges(t.database.db, owner.organizationId)).toBe(false);
    expect(await accountOf(owner)).toMatchObject({ accountStatus: 'inactive', inactiveReason: 'operator' });
  });

  it('stays a suspension when a billing run then leaves a charge unpaid', async () => {
    const owner = await newOwner('suspended-then-billed');
    await setStatus(owner, 'inactive');
    const run = await leaveChargeUnpaid(owner);
    expect(run.billed).toEqual([expect.objectContaining({ status: 'open' })]);
    expect(await accountOf(owner)).toMatchObject({ accountStatus: 'inactive', inactiveReason: 'operator' });
    expect((await addCard(owner)).accountReactivated).toBe(false);
    expect(await accountOf(owner)).toMatchObject({ accountStatus: 'inactive', inactiveReason: 'operator' });
  });
});

describe('billing inactivity', () => {
  it('ends with a card that pays what is due', async () => {
    const owner = await newOwner('billing-card');
    await leaveChargeUnpaid(owner);
    expect(await accountOf(owner)).toEqual({
      shown: 'inactive',
      accountStatus: 'inactive',
      inactiveReason: 'billing',
    });
    expect((await addCard(owner)).accountReactivated).toBe(true);
    expect(await accountOf(owner)).toEqual({
      shown: 'active',
      accountStatus: 'active',
      inactiveReason: null,
    });
  });

  it('ends with a top-up that pays what is due', async () => {
    const owner = await newOwner('billing-top-up');
    await leaveChargeUnpaid(owner);
    const topUp = await topUpWithSandboxCard(t.app, owner.cookie, 100);
    expect(topUp.statusCode, topUp.body).toBe(201);
    expect((topUp.json() as TopUpResponse).accountReactivated).toBe(true);
    expect(await accountOf(owner)).toMatchObject({ accountStatus: 'active', inactiveReason: null });
  });
});

describe('the reason, as the operator sees it', () => {
  it('is in the operator API: the organisation and the list', async () => {
    const billing = await newOwner('reason-billing');
    await leaveChargeUnpaid(billing);
    const suspended = await newOwner('reason-operator');
    await setStatus(suspended, 'inactive');
    const active = await newOwner('reason-active');

    const shown = async (owner: Owner) =>
      ((await operator('GET', `/organizations/${owner.organizationId}`)).json() as OperatorOrganization)
        .inactiveReason;
    expect([await shown(billing), await shown(suspended), await shown(active)]).toEqual([
      'billing',
      'operator',
      null,
    ]);
    const listed = (await operator('GET', '/organizations')).json() as ListOperatorOrganizationsResponse;
    const reasonOf = (owner: Owner) =>
      listed.data.find((row) => row.id === owner.organizationId)?.inactiveReason;
    expect([reasonOf(billing), reasonOf(suspended), reasonOf(active)]).toEqual(['billing', 'operator', null]);
  });

  it('is in the CLI: org show, org list and set-status', async () => {
    const billing = await newOwner('cli-billing');
    await leaveChargeUnpaid(billing);
    const suspended = await newOwner('cli-operator');

    const setInactive = await cli.run('org', 'set-status', suspended.email, 'inactive');
    expect(setInactive.code, setInactive.stderr).toBe(EXIT_OK);
    expect(setInactive.stdout).toMatch(/^Status\s+inactive \(suspended by an operator\)$/m);
    const shownBilling = await cli.run('org', 'show', billing.email);
    expect(shownBilling.stdout).toMatch(/^Status\s+inactive \(unpaid charge\)$/m);

    const listed = await cli.run('org', 'list');
    expect(listed.code, listed.stderr).toBe(EXIT_OK);
    const rowOf = (owner: Owner) =>
      listed.stdout.split('\n').find((line) => line.includes(owner.organizationId));
    expect(rowOf(suspended)).toMatch(/PAYG\s+inactive \(suspended by an operator\)\s+USD/);
    expect(rowOf(billing)).toMatch(/PAYG\s+inactive \(unpaid charge\)\s+USD/);

    const setActive = await cli.run('org', 'set-status', suspended.email, 'active');
    expect(setActive.stdout).toMatch(/^Status\s+active$/m);
  });
});
