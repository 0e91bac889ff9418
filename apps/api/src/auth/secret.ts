import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The configured value when there is one; otherwise a random one generated once and kept in
 * `dataDir/fileName`, so restarts (and concurrent processes on the same data dir) agree on it.
 */
export function resolveDataDirSecret(configured: string | undefined, dataDir: string, fileName: string): string {
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
  return resolveDataDirSecret(configured, dataDir, 'auth-secret');
}

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest();

/** Whether a presented bearer secret is the expected one, compared in constant time (of equal-length digests). */
export function isSameSecret(presented: string, expected: string): boolean {
  return crypto.timingSafeEqual(sha256(presented), sha256(expected));
}
