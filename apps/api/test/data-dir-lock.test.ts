import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import { DataDirLockedError } from '../src/db/data-dir-lock.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const LOCK_MODULE = pathToFileURL(path.resolve(REPO_ROOT, 'apps/api/src/db/data-dir-lock.ts')).href;

const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDataDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-lock-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function openEmbedded(dataDir: string) {
  return openDatabase({ databaseUrl: undefined, dataDir });
}

function waitForExit(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Another portal process: takes the lock on `dir`, says so, and holds it until its stdin closes. */
async function lockInChildProcess(dir: string): Promise<ChildProcess> {
  const script = [
    `const { lockDataDir } = await import(${JSON.stringify(LOCK_MODULE)});`,
    `lockDataDir(${JSON.stringify(dir)});`,
    `process.stdout.write('locked\\n');`,
    `process.stdin.resume();`,
    `process.stdin.on('end', () => process.exit(0));`,
  ].join('\n');
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: REPO_ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  cleanups.push(async () => {
    child.stdin?.end();
    await waitForExit(child);
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('locked\n')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the locking process exited (${code}): ${stderr}`)));
  });
  return child;
}

/** A pid that belonged to a process which has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await waitForExit(child);
  if (!child.pid) throw new Error('no pid');
  return child.pid;
}

describe('the embedded database directory lock', () => {
  it('refuses a second open in the same process until the first is closed', async () => {
    const dir = tempDataDir();
    const first = await openEmbedded(dir);
    let closed = false;
    cleanups.push(() => (closed ? undefined : first.close()));
    expect(fs.readFileSync(path.join(dir, 'portal.lock'), 'utf8')).toBe(String(process.pid));

    const second = openEmbedded(dir);
    await expect(second).rejects.toBeInstanceOf(DataDirLockedError);
    await expect(second).rejects.toThrow(dir);

    await first.close();
    closed = true;
    expect(fs.existsSync(path.join(dir, 'portal.lock'))).toBe(false);
  });

  it('refuses a directory another running process holds, naming the directory and the process', async () => {
    const dir = tempDataDir();
    const holder = await lockInChildProcess(dir);

    const attempt = openEmbedded(dir);
    await expect(attempt).rejects.toBeInstanceOf(DataDirLockedError);
    await expect(attempt).rejects.toThrow(`The embedded database in ${dir} is in use by another process (pid ${holder.pid})`);
    // The holder's lock is left alone.
    expect(fs.readFileSync(path.join(dir, 'portal.lock'), 'utf8')).toBe(String(holder.pid));
  });

  it('takes over a lock left by a process that no longer runs', async () => {
    const dir = tempDataDir();
    const stalePid = await deadPid();
    fs.writeFileSync(path.join(dir, 'portal.lock'), String(stalePid));

    const database = await openEmbedded(dir);
    cleanups.push(() => database.close());
    expect(fs.readFileSync(path.join(dir, 'portal.lock'), 'utf8')).toBe(String(process.pid));
    const { rows } = await database.pglite!.query<{ one: number }>('select 1 as one');
    expect(rows).toEqual([{ one: 1 }]);
  });
});
