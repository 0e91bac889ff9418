import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PGlite database (dumpDataDir's tarball) that each test file's database starts from. */
    pgliteCopyFile?: string;
  }
}

/**
 * Global setup of the suites that give each file a fresh PGlite database: one migrated database,
 * written once, that every file's database is a copy of. Creating a PGlite database from nothing
 * (its initdb) takes seconds, several times a copy's load, and the suites have tens of files.
 * Against PostgreSQL (TEST_DATABASE_URL) each file has a scratch database instead, and there is no copy.
 */
export default async function writeMigratedPgliteCopy(project: TestProject) {
  if (process.env.TEST_DATABASE_URL) return undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-test-pglite-'));
  const file = path.join(dir, 'migrated.tar');
  const database = await openDatabase({ databaseUrl: undefined, dataDir: 'memory://' });
  try {
    const tarball = await database.pglite!.dumpDataDir('none');
    fs.writeFileSync(file, Buffer.from(await tarball.arrayBuffer()));
  } finally {
    await database.close();
  }
  project.provide('pgliteCopyFile', file);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

/** The migrated copy written by the global setup, when this suite has one. */
export function migratedPgliteCopy(): Blob | undefined {
  const file = inject('pgliteCopyFile');
  return file ? new Blob([fs.readFileSync(file)]) : undefined;
}
