import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { generatedSecret } from '../db/schema.ts';

/** The file in the data dir that holds the generated auth secret. */
export const AUTH_SECRET_FILE = 'auth-secret';
/** Where the generated operator token is kept in the data dir; the operator CLI reads it from there. */
export const OPERATOR_TOKEN_FILE = 'operator-token';

/**
 * The configured value when there is one; otherwise a random one generated once and kept in
 * `dataDir/fileName`, so restarts (and concurrent processes on the same data dir) agree on it.
 */
export function resolveDataDirSecret(
  configured: string | undefined,
  dataDir: string,
  fileName: string,
): string {
  if (configured) return configured;
  const file = path.join(dataDir, fileName);
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = crypto.randomBytes(32).toString('base64url');
  try {
    fs.writeFileSync(file, secret, { flag: 'wx', mode: 0o600 });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return fs.readFileSync(file, 'utf8').trim();
    throw error;
  }
}

/** AUTH_SECRET when configured; otherwise one generated once and kept in the data directory. */
export function resolveAuthSecret(configured: string | undefined, dataDir: string): string {
  return resolveDataDirSecret(configured, dataDir, AUTH_SECRET_FILE);
}

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest();

/** Whether a presented bearer secret is the expected one, compared in constant time (of equal-length digests). */
export function isSameSecret(presented: string, expected: string): boolean {
  return crypto.timingSafeEqual(sha256(presented), sha256(expected));
}

function readSecretFile(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * On PostgreSQL, where several instances each with its own data dir share one database: makes each
 * named data-dir secret (one the configuration does not set) the same on every instance. The first
 * instance to start writes its own (from its data dir when it has one, so a portal that ran alone
 * keeps its sessions, second factors and tokens) to table `generated_secret`; every instance then
 * copies the stored one into its data dir, where the code that needs a secret reads it, and where
 * the operator CLI finds the token (decision 033).
 */
export async function shareDataDirSecrets(db: Executor, dataDir: string, fileNames: readonly string[]) {
  fs.mkdirSync(dataDir, { recursive: true });
  for (const name of fileNames) {
    const file = path.join(dataDir, name);
    const local = readSecretFile(file);
    await db
      .insert(generatedSecret)
      .values({ name, value: local ?? crypto.randomBytes(32).toString('base64url') })
      .onConflictDoNothing();
    const [stored] = await db.select().from(generatedSecret).where(eq(generatedSecret.name, name));
    if (!stored) throw new Error(`the generated secret ${name} was not stored`);
    if (stored.value === local) continue;
    // Written whole, then renamed over the old file: another process on this data dir never reads half.
    const partial = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
    fs.writeFileSync(partial, stored.value, { mode: 0o600 });
    fs.renameSync(partial, file);
  }
}
