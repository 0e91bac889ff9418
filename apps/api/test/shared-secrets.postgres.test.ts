import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  AUTH_SECRET_FILE,
  OPERATOR_TOKEN_FILE,
  resolveAuthSecret,
  shareDataDirSecrets,
} from '../src/auth/secret.ts';
import { generatedSecret } from '../src/db/schema.ts';
import { operatorToken } from '../src/modules/operators/operator-token.ts';
import { accountOf, setUpOrganization } from './helper.ts';
import { usePortalInstances, type PortalInstance } from './instances.ts';
import { operatorApi } from './operator-fixtures.ts';

/*
 * Two instances on one PostgreSQL database, each with its own data dir (as on its own machine) and
 * no AUTH_SECRET or OPERATOR_TOKEN configured: the secrets the portal generates must be the same on
 * both, or a session, an access token or an invoice link made by one is refused by the other.
 */
const instances = usePortalInstances(2, undefined, (config) => ({
  ...config,
  authSecret: undefined,
  operatorToken: undefined,
}));

describe('secrets the portal generates, on PostgreSQL', () => {
  it('are the same on every instance, so a session made by one is good on the other', async () => {
    const [a, b] = instances as [PortalInstance, PortalInstance];
    expect(a.config.dataDir).not.toBe(b.config.dataDir);
    expect(resolveAuthSecret(undefined, b.config.dataDir)).toBe(
      resolveAuthSecret(undefined, a.config.dataDir),
    );

    const cookie = await setUpOrganization(a.app, 'shared-session@acme.io');
    expect((await accountOf(b.app, cookie)).organization).toBeTruthy();

    const token = operatorToken(a.config);
    expect(operatorToken(b.config)).toBe(token);
    const response = await operatorApi(b, token)('GET', '/organizations?page=1');
    expect(response.statusCode, response.body).toBe(200);
  });

  it('keep the secret of a portal that ran alone before, and bring every data dir in line with the stored one', async () => {
    const db = instances[0]!.database.db;
    const name = `${AUTH_SECRET_FILE}-upgrade-test`;
    const ranAlone = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-alone-'));
    const joining = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-joining-'));
    try {
      fs.writeFileSync(path.join(ranAlone, name), 'the-secret-the-portal-has-signed-with-so-far');
      fs.writeFileSync(path.join(joining, name), 'a-secret-this-instance-made-up-on-its-own');
      await shareDataDirSecrets(db, ranAlone, [name]);
      await shareDataDirSecrets(db, joining, [name]);

      const [stored] = await db.select().from(generatedSecret).where(eq(generatedSecret.name, name));
      expect(stored?.value).toBe('the-secret-the-portal-has-signed-with-so-far');
      expect(fs.readFileSync(path.join(joining, name), 'utf8')).toBe(stored?.value);
      expect(fs.readFileSync(path.join(ranAlone, name), 'utf8')).toBe(stored?.value);
    } finally {
      fs.rmSync(ranAlone, { recursive: true, force: true });
      fs.rmSync(joining, { recursive: true, force: true });
    }
  });

  it('are kept in the database, never in one process only', async () => {
    const names = (
      await instances[0]!.database.db.select({ name: generatedSecret.name }).from(generatedSecret)
    ).map((row) => row.name);
    expect(names).toEqual(expect.arrayContaining([AUTH_SECRET_FILE, OPERATOR_TOKEN_FILE]));
  });
});
