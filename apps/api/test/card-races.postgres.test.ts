import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PaymentProfile } from '@portal/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import * as schema from '../src/db/schema.ts';
import { CARDS, cardAttemptsOf, cardRequest, newPayer, topUp } from './card-abuse-support.ts';
import { sandboxCardToken } from './card-fixtures.ts';
import { testConfig } from './fixtures.ts';
import { createScratchDatabase } from './scratch-database.ts';

/*
 * Two portal instances on one PostgreSQL database, as production runs several: requests really run
 * side by side on different connections and processes' pools. The api project includes this file
 * only when TEST_DATABASE_URL is set (vitest.config.ts).
 */

interface Instances {
  apps: [FastifyInstance, FastifyInstance];
  database: Database;
  close(): Promise<void>;
}

const opened: Instances[] = [];

/** Two instances of the portal on one new database, with the same sandbox keys and `env`. */
async function twoInstances(env: Record<string, string> = {}): Promise<Instances> {
  const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!, 'portal_card_races');
  const shared = {
    CARD_SANDBOX_SECRET_KEY: `sk_sandbox_${crypto.randomBytes(16).toString('hex')}`,
    CARD_SANDBOX_PUBLISHABLE_KEY: `pk_sandbox_${crypto.randomBytes(16).toString('hex')}`,
    ...env,
  };
  const parts: { app: FastifyInstance; database: Database; dataDir: string }[] = [];
  for (let index = 0; index < 2; index += 1) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-card-races-'));
    const database = await openDatabase({ databaseUrl: scratch.url, dataDir: 'memory://' });
    parts.push({ app: await buildApp({ config: testConfig(dataDir, shared), database }), database, dataDir });
  }
  const instances: Instances = {
    apps: [parts[0]!.app, parts[1]!.app],
    database: parts[0]!.database,
    close: async () => {
      for (const part of parts) {
        await part.app.close();
        await part.database.close();
        fs.rmSync(part.dataDir, { recursive: true, force: true });
      }
      await scratch.drop();
    },
  };
  opened.push(instances);
  return instances;
}

afterEach(async () => {
  for (const instances of opened.splice(0)) await instances.close();
});

describe('cards on two instances of the portal on one PostgreSQL database', () => {
  it('10 first cards saved at once: one gateway customer, one default, every card chargeable, no 500', async () => {
    // The race is the subject here, not the card-attempt limits: they are raised out of its way.
    const { apps, database } = await twoInstances({
      CARD_ATTEMPTS_PER_MEMBER: '1000',
      CARD_ATTEMPTS_PER_ORGANIZATION: '1000',
      CARD_ATTEMPTS_PER_IP: '1000',
    });
    const owner = await newPayer(apps[0], 'first-cards@card-races.example.com');
    const tokens = await Promise.all(
      Array.from({ length: 10 }, (_, index) => sandboxCardToken(apps[index % 2]!, owner.cookie, CARDS.visa)),
    );
    const answers = await Promise.all(
      tokens.map((token, index) =>
        cardRequest(apps[index % 2]!, owner, 'POST', '/api/v1/accounts/payment-profiles', { token }),
      ),
    );
    for (const answer of answers) expect([201, 409], answer.body).toContain(answer.statusCode);
    const saved = answers
      .filter((answer) => answer.statusCode === 201)
      .map((answer) => answer.json() as PaymentProfile);
    expect(saved.length).toBeGreaterThan(0);

    const profiles = await database.db
      .select()
      .from(schema.paymentProfile)
      .where(eq(schema.paymentProfile.organizationId, owner.organizationId));
    expect(profiles.map((profile) => profile.id).sort()).toEqual(saved.map((profile) => profile.id).sort());
    expect(profiles.filter((profile) => profile.isDefault)).toHaveLength(1);
    const [organization] = await database.db
      .select({
        customerRef: schema.organization.gatewayCustomerRef,
        hasCards: schema.organization.hasPaymentProfile,
      })
      .from(schema.organization)
      .where(eq(schema.organization.id, owner.organizationId));
    expect(organization?.hasCards).toBe(true);
    const { rows } = await database.pool!.query<{ customer_id: string }>(
      'SELECT DISTINCT customer_id FROM card_sandbox.payment_methods WHERE id = ANY($1)',
      [profiles.map((profile) => profile.paymentMethodRef)],
    );
    expect(rows.map((row) => row.customer_id)).toEqual([organization?.customerRef]);

    for (const [index, profile] of profiles.entries()) {
      const paid = await topUp(apps[index % 2]!, owner, { paymentProfileId: profile.id });
      expect(paid.statusCode, paid.body).toBe(201);
    }
  });

  it('40 declined saves at once across both instances are held to the member limit of 3', async () => {
    const { apps, database } = await twoInstances();
    const owner = await newPayer(apps[0], 'card-testing@card-races.example.com');
    const tokens = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        sandboxCardToken(apps[index % 2]!, owner.cookie, CARDS.declined),
      ),
    );
    const answers = await Promise.all(
      tokens.map((token, index) =>
        cardRequest(apps[index % 2]!, owner, 'POST', '/api/v1/accounts/payment-profiles', { token }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 402)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(37);
    for (const answer of answers.filter((answer) => answer.statusCode === 429)) {
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect((await cardAttemptsOf(database.db, owner.organizationId)).map((row) => row.outcome)).toEqual([
      'declined',
      'declined',
      'declined',
    ]);
  });
});
