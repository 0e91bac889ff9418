import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddPaymentProfileResponse, OperatorOrganization } from '@portal/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import { billMayLeftUnpaid, organizationRow } from './billing-fixtures.ts';
import { addSandboxCard } from './card-fixtures.ts';
import { testConfig } from './fixtures.ts';
import { jsonRequest, setUpOrganization, useTestApp } from './helper.ts';
import { operatorApi } from './operator-fixtures.ts';
import { databaseUrlOf } from './session-cache-support.ts';

/*
 * Production is several instances on one PostgreSQL database: an operator's suspension made through
 * one must hold when a member adds a card through another, whose kept session answers learn of the
 * change from the database's notices (decision 027).
 */
const OPERATOR_TOKEN = 'operator-token-for-the-two-instance-suspension-test';
const first = useTestApp({ OPERATOR_TOKEN });
let second: { app: FastifyInstance; database: Database; dataDir: string };

beforeAll(async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-second-instance-'));
  const database = await openDatabase({
    databaseUrl: databaseUrlOf(first.database.pool!),
    dataDir: 'memory://',
  });
  const app = await buildApp({ config: testConfig(dataDir, { OPERATOR_TOKEN }), database });
  second = { app, database, dataDir };
});

afterAll(async () => {
  await second.app.close();
  await second.database.close();
  fs.rmSync(second.dataDir, { recursive: true, force: true });
});

let owners = 0;
async function newOwner(label: string) {
  const email = `${label}-${(owners += 1)}@two-instances.example.com`;
  const cookie = await setUpOrganization(first.app, email);
  const me = await first.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, cookie));
  return { cookie, organizationId: (me.json() as { organizationId: string }).organizationId };
}

const operatorOfFirst = operatorApi(first, OPERATOR_TOKEN);
const setStatusThroughFirst = (organizationId: string, status: 'active' | 'inactive') =>
  operatorOfFirst('PUT', `/organizations/${organizationId}/status`, { status });

/** Waits until the second instance answers the account status: its kept answer has heard the change. */
async function untilSecondSees(cookie: string, accountStatus: string) {
  await expect
    .poll(
      async () => {
        const me = await second.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, cookie));
        return (me.json() as { accountStatus: string }).accountStatus;
      },
      { timeout: 10_000, interval: 20 },
    )
    .toBe(accountStatus);
}

describe('an operator suspension with two instances on one PostgreSQL database', () => {
  it('holds when the card is added through the other instance, and the operator lifts it', async () => {
    const owner = await newOwner('suspended');
    await untilSecondSees(owner.cookie, 'active');
    const suspended = await setStatusThroughFirst(owner.organizationId, 'inactive');
    expect((suspended.json() as OperatorOrganization).inactiveReason).toBe('operator');
    await untilSecondSees(owner.cookie, 'inactive');

    const added = await addSandboxCard(second.app, owner.cookie);
    expect(added.statusCode, added.body).toBe(201);
    expect((added.json() as AddPaymentProfileResponse).accountReactivated).toBe(false);
    expect(await organizationRow(first.database.db, owner.organizationId)).toMatchObject({
      accountStatus: 'inactive',
      inactiveReason: 'operator',
    });

    const lifted = await setStatusThroughFirst(owner.organizationId, 'active');
    expect(lifted.json() as OperatorOrganization).toMatchObject({
      accountStatus: 'active',
      inactiveReason: null,
    });
    await untilSecondSees(owner.cookie, 'active');
  });

  it('an account inactive for billing comes back with a card added through the other instance', async () => {
    const owner = await newOwner('billing');
    const run = await billMayLeftUnpaid(first.database.db, owner.organizationId);
    expect(run.becameInactive).toEqual([owner.organizationId]);
    await untilSecondSees(owner.cookie, 'inactive');

    const added = await addSandboxCard(second.app, owner.cookie);
    expect(added.statusCode, added.body).toBe(201);
    expect((added.json() as AddPaymentProfileResponse).accountReactivated).toBe(true);
    expect(await organizationRow(first.database.db, owner.organizationId)).toMatchObject({
      accountStatus: 'active',
      inactiveReason: null,
    });
  });
});
