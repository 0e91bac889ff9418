import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, main } from '../src/cli/portal-cli.ts';
import { OPERATOR_TOKEN_FILE } from '../src/auth/secret.ts';
import { newApplicationWithUsage, newOrganization } from './billing-fixtures.ts';
import { enrolAuthenticator, jsonRequest, setUpOrganization, signInRequest, useTestApp } from './helper.ts';

/*
 * The operator CLI's main function against the portal listening on a free port, as an operator
 * runs it: commands parsed, tables by default and the API's answer with --json, exit codes 0, 1
 * and 2, and the wrong token or an unreachable portal said in words.
 */
const OPERATOR_TOKEN = 'operator-token-for-the-cli-test';
const t = useTestApp({ OPERATOR_TOKEN });
const OWNER_EMAIL = 'owner@cli-operated.io';
let portalUrl = '';
let organizationId = '';

/** Runs a command line, given as its words or as one string of words separated by spaces. */
async function portal(commandLine: string[] | string, env: Record<string, string | undefined> = {}) {
  const argv = typeof commandLine === 'string' ? commandLine.split(' ') : commandLine;
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    env: { PORTAL_URL: portalUrl, OPERATOR_TOKEN, ...env },
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { code, stdout, stderr };
}

beforeAll(async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  portalUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const cookie = await setUpOrganization(t.app, OWNER_EMAIL);
  const me = await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, cookie));
  organizationId = (me.json() as { organizationId: string }).organizationId;
});

describe('the operator CLI', () => {
  it('lists organisations as a table, and as the API answers them with --json', async () => {
    const listed = await portal(['org', 'list']);
    expect(listed.code, listed.stderr).toBe(EXIT_OK);
    expect(listed.stdout).toMatch(/^ID\s+NAME\s+EMAIL\s+CONTRACT\s+STATUS\s+BALANCE\n/);
    expect(listed.stdout).toContain(organizationId);
    expect(listed.stdout).toMatch(/Acme\s+owner@cli-operated\.io\s+PAYG\s+active\s+USD 0\.00/);
    expect(listed.stdout).toMatch(/1 of 1 organisations\n$/);

    const json = await portal(['org', 'list', '--json']);
    expect(json.code).toBe(EXIT_OK);
    expect(JSON.parse(json.stdout)).toMatchObject({ total: 1, data: [{ id: organizationId, balance: 0 }] });
  });

  it("shows an organisation by a member's address", async () => {
    const shown = await portal(['org', 'show', OWNER_EMAIL]);
    expect(shown.code, shown.stderr).toBe(EXIT_OK);
    expect(shown.stdout).toContain(`Organisation     Acme (${organizationId})`);
    expect(shown.stdout).toContain('Contract         PAYG');
    expect(shown.stdout).toMatch(/Limits\s+0 of 10 applications, 1 of 10 members/);
  });

  it('sets a flat-rate contract, limits, status and free credit, each shown after the change', async () => {
    const contract = await portal(
      `org set-contract ${organizationId} --type flat-rate --license 5000 --support-plan Gold --fee 499.00`,
    );
    expect(contract.code, contract.stderr).toBe(EXIT_OK);
    expect(contract.stdout).toContain('flat-rate: licence 5000 MAU for USD 499.00 a month');
    expect(contract.stdout).toContain('Support plan     Gold');

    const limits = await portal(['org', 'set-limits', organizationId, '--apps', '20', '--members', '30']);
    expect(limits.stdout).toMatch(/0 of 20 applications, 1 of 30 members/);
    const status = await portal(['org', 'set-status', organizationId, 'inactive']);
    expect(status.stdout).toMatch(/Status\s+inactive/);
    const freeCredit = await portal(['org', 'set-free-credit', organizationId, 'off', '--json']);
    expect(JSON.parse(freeCredit.stdout)).toMatchObject({ isFreeCredit: false, accountStatus: 'inactive' });
    await portal(['org', 'set-status', organizationId, 'active']);
    await portal(['org', 'set-contract', organizationId, '--type', 'payg']);
  });

  it('grants credit and says the new balance', async () => {
    const granted = await portal(`org grant-credit ${OWNER_EMAIL} --amount 50.00 --note Welcome`);
    expect(granted.code, granted.stderr).toBe(EXIT_OK);
    expect(granted.stdout).toMatch(
      /^Granted USD 50\.00 as transaction \d{9}; the balance is now USD 50\.00\.\n$/,
    );
  });

  it('grants once when the command is repeated with its key', async () => {
    const command = [
      'org',
      'grant-credit',
      OWNER_EMAIL,
      '--amount',
      '7.00',
      '--note',
      'Once',
      '--key',
      'cli-key-1',
    ];
    const first = await portal(command);
    const repeated = await portal(command);
    expect(first.stdout).toMatch(
      /^Granted USD 7\.00 as transaction (\d{9}); the balance is now USD 57\.00\.\n$/,
    );
    const transactionId = /transaction (\d{9})/.exec(first.stdout)?.[1];
    expect(repeated.code, repeated.stderr).toBe(EXIT_OK);
    expect(repeated.stdout).toBe(
      `Already granted USD 7.00 as transaction ${transactionId}; the balance is now USD 57.00.\n`,
    );
  });

  it('raises a miscellaneous charge with its tax, once when repeated with its key, and names a refused flag', async () => {
    const command = [
      'billing',
      'charge',
      OWNER_EMAIL,
      '--amount',
      '120.00',
      '--notes',
      'Onboarding workshop',
    ];
    const first = await portal([...command, '--key', 'cli-charge-1']);
    expect(first.code, first.stderr).toBe(EXIT_OK);
    expect(first.stdout).toMatch(
      /^Raised transaction (\d{9}) \(open\): USD 120\.00 \+ tax 9% USD 10\.80 = USD 130\.80, for "Onboarding workshop"\.\n$/,
    );
    const transactionId = /transaction (\d{9})/.exec(first.stdout)?.[1];
    const repeated = await portal([...command, '--key', 'cli-charge-1', '--json']);
    expect(repeated.code, repeated.stderr).toBe(EXIT_OK);
    expect(JSON.parse(repeated.stdout)).toMatchObject({ transactionId, total: 130.8, alreadyCreated: true });

    const refused = await portal(['billing', 'charge', OWNER_EMAIL, '--amount', '0.00', '--notes', 'x']);
    expect(refused.code).toBe(EXIT_FAILED);
    expect(refused.stderr).toMatch(/amount: must be more than 0 \(--amount\) \[VALIDATION_ERROR\]/);
  });

  it('voids a miscellaneous charge, says so when it was already voided, and says why one cannot be', async () => {
    const raised = await portal(['billing', 'charge', OWNER_EMAIL, '--amount', '50.00', '--notes', 'Courier', '--json']);
    expect(raised.code, raised.stderr).toBe(EXIT_OK);
    const { transactionId } = JSON.parse(raised.stdout) as { transactionId: string };
    const command = ['billing', 'void-charge', OWNER_EMAIL, transactionId, '--reason', 'Raised twice'];

    const voided = await portal(command);
    expect(voided.code, voided.stderr).toBe(EXIT_OK);
    expect(voided.stdout).toBe(
      `Voided transaction ${transactionId} (voided): USD 54.50 for "Courier" is no longer due.\n`,
    );
    const repeated = await portal([...command, '--json']);
    expect(repeated.code, repeated.stderr).toBe(EXIT_OK);
    expect(JSON.parse(repeated.stdout)).toMatchObject({ transactionId, status: 'voided', alreadyVoided: true });

    const blank = await portal(['billing', 'void-charge', OWNER_EMAIL, transactionId, '--reason', ' ']);
    expect(blank.code).toBe(EXIT_FAILED);
    expect(blank.stderr).toMatch(/\(--reason\) \[VALIDATION_ERROR\]/);
    const missing = await portal(['billing', 'void-charge', OWNER_EMAIL, '999999999', '--reason', 'x']);
    expect(missing.code).toBe(EXIT_FAILED);
    expect(missing.stderr).toContain('[NOT_FOUND]');
  });

  it('imports usage and runs a billing twice, billing once, with a progress line', async () => {
    const imported = await portal(['usage', 'import', '--month', '2025-05']);
    expect(imported.code, imported.stderr).toBe(EXIT_OK);
    expect(imported.stderr).toContain('Importing the usage of 2025-05 from every region…');
    expect(imported.stdout).toBe('Imported the usage of 2025-05: 0 applications recorded.\n');

    const billed = await newOrganization(t.database.db, { balanceCents: 10_000 });
    await newApplicationWithUsage(t.database.db, billed, {
      plan: 'advance',
      billingCycle: '2025-05',
      mau: 100,
    });
    const first = await portal(['billing', 'run', '--month', '2025-05', '--org', billed]);
    expect(first.code, first.stderr).toBe(EXIT_OK);
    expect(first.stderr).toContain(`Billing 2025-05 for ${billed}…`);
    expect(first.stdout).toContain('Billed 2025-05: 1 billed, 0 already billed, 0 made inactive, 0 failed.');
    expect(first.stdout).toMatch(
      new RegExp(`${billed}\\s+\\d{9}\\s+paid\\s+USD 9\\.00\\s+USD 0\\.00\\s+USD 9\\.00\\s+USD 0\\.00`),
    );
    const again = await portal(['billing', 'run', '--month', '2025-05', '--org', billed, '--json']);
    expect(again.code).toBe(EXIT_OK);
    expect(again.stderr).toBe('');
    expect(JSON.parse(again.stdout)).toMatchObject({ billed: [], alreadyBilled: [billed] });
  });

  it("removes a person's second factor, ends their sessions and says so", async () => {
    const email = 'lost-phone@cli-operated.io';
    const { cookie } = await enrolAuthenticator(t.app, await setUpOrganization(t.app, email));
    const removed = await portal(['member', 'reset-two-factor', email.toUpperCase()]);
    expect(removed.code, removed.stderr).toBe(EXIT_OK);
    expect(removed.stdout).toBe(
      `Removed the second factor of ${email} and ended their sessions; they sign in with their password alone and may set up two-factor authentication again.\n` +
        'They were mailed a notice of it.\n',
    );
    const account = await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, cookie));
    expect(account.statusCode).toBe(401);
    expect((await signInRequest(t.app, email)).json()).not.toHaveProperty('twoFactorRedirect');

    const again = await portal(['member', 'reset-two-factor', email, '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({
      email,
      hadSecondFactor: false,
      requireTwoFactor: false,
    });
    const none = await portal(['member', 'reset-two-factor', email]);
    expect(none.stdout).toBe(
      `${email} had no second factor; their sessions were ended.\nThey were mailed a notice of it.\n`,
    );
    const missing = await portal(['member', 'reset-two-factor', 'nobody@nowhere.io']);
    expect(missing.code).toBe(EXIT_FAILED);
    expect(missing.stderr).toBe('Nobody has the address nobody@nowhere.io. [NOT_FOUND]\n');
  });

  it.each([
    [[]],
    [['org']],
    [['org', 'frob']],
    [['org', 'show']],
    [['org', 'show', 'a', 'b']],
    [['org', 'list', '--bogus']],
    [['org', 'set-contract', 'x', '--type', 'monthly']],
    [['org', 'set-contract', 'x']],
    [['org', 'set-limits', 'x']],
    [['org', 'set-limits', 'x', '--apps', 'many']],
    [['org', 'set-status', 'x', 'paused']],
    [['org', 'set-free-credit', 'x', 'maybe']],
    [['org', 'grant-credit', 'x', '--amount', '5.00']],
    [['billing', 'run']],
    [['billing', 'charge', 'x', '--amount', '5.00']],
    [['billing', 'charge', '--amount', '5.00', '--notes', 'x']],
    [['billing', 'void-charge', 'x', '42']],
    [['billing', 'void-charge', 'x', '--reason', 'y']],
    [['member', 'reset-two-factor']],
  ])('exits 2 with the usage for %j, calling nothing', async (argv) => {
    const result = await portal(argv, { PORTAL_URL: 'http://127.0.0.1:9' });
    expect(result.code).toBe(EXIT_USAGE);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('usage: npm run portal -- <command>');
  });

  it('says what the portal refused, naming the flag, and exits 1', async () => {
    const result = await portal(`org set-contract ${organizationId} --type flat-rate --license 10`);
    expect(result.code).toBe(EXIT_FAILED);
    expect(result.stderr).toMatch(
      /licenseFee: is required for a flat-rate contract \(--fee\) \[VALIDATION_ERROR\]/,
    );
    const missing = await portal(['org', 'show', 'nobody@nowhere.io']);
    expect(missing.code).toBe(EXIT_FAILED);
    expect(missing.stderr).toContain(
      'No organisation has the id or a member with the address nobody@nowhere.io.',
    );
  });

  it('reads the token from the data dir without OPERATOR_TOKEN, and says when it is wrong and where it was read', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-cli-'));
    const tokenFile = path.join(dataDir, OPERATOR_TOKEN_FILE);
    const env = { OPERATOR_TOKEN: undefined, PORTAL_DATA_DIR: dataDir };
    try {
      fs.writeFileSync(tokenFile, `${OPERATOR_TOKEN}\n`);
      expect((await portal(['org', 'list'], env)).code).toBe(EXIT_OK);

      fs.writeFileSync(tokenFile, 'not-the-operator-token');
      const wrongFile = await portal(['org', 'list'], env);
      expect(wrongFile.code).toBe(EXIT_FAILED);
      expect(wrongFile.stderr).toContain(`refused the operator token (the token in ${tokenFile})`);

      fs.rmSync(tokenFile);
      const none = await portal(['org', 'list'], env);
      expect(none.code).toBe(EXIT_FAILED);
      expect(none.stderr).toContain(`No operator token: ${tokenFile} does not exist.`);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    const wrong = await portal(['org', 'list'], { OPERATOR_TOKEN: 'not-the-operator-token' });
    expect(wrong.code).toBe(EXIT_FAILED);
    expect(wrong.stderr).toContain(`The portal at ${portalUrl} refused the operator token (OPERATOR_TOKEN)`);
  });

  it('says when the portal is not reachable', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = await portal(['org', 'list'], { PORTAL_URL: `http://127.0.0.1:${port}` });
    expect(unreachable.code).toBe(EXIT_FAILED);
    expect(unreachable.stderr).toBe(
      `The portal is not reachable at http://127.0.0.1:${port} (ECONNREFUSED). Start it (npm start) or set PORTAL_URL to where it runs.\n`,
    );
    const grant = await portal(
      ['org', 'grant-credit', 'x', '--amount', '5.00', '--note', 'n', '--key', 'lost-answer'],
      { PORTAL_URL: `http://127.0.0.1:${port}` },
    );
    expect(grant.stderr).toContain(
      'The credit may have been granted: repeat the command with --key lost-answer to grant it at most once.',
    );
    const run = await portal(['billing', 'run', '--month', '2025-01'], {
      PORTAL_URL: `http://127.0.0.1:${port}`,
    });
    expect(run.stderr).toContain(
      'Part of the month may be billed already: run the same command again once the portal is up; each organisation is billed at most once.',
    );
  });
});
