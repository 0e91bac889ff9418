import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** Where Debian installs PostgreSQL 15's server programs (initdb, pg_ctl, pg_dump …). */
const POSTGRES_BIN = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';
/** PostgreSQL refuses to run as root: the cluster's programs run as this user then. */
const CLUSTER_USER = 'postgres';

/** Whether this machine can start a throw-away cluster (its server programs are installed). */
export function canStartThrowawayCluster(): boolean {
  return fs.existsSync(path.join(POSTGRES_BIN, 'initdb')) && fs.existsSync(path.join(POSTGRES_BIN, 'pg_ctl'));
}

/** A loopback port nothing listens on now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A PostgreSQL cluster of its own (never the machine's server): its address, restart and removal. */
export interface ThrowawayCluster {
  port: number;
  /** The connection string of `database` on this cluster (superuser `postgres`, trust authentication). */
  urlOf(database: string): string;
  createDatabase(name: string): Promise<string>;
  /** `pg_ctl restart -m fast`: sessions are ended (57P01), then the server is down until it is back. */
  restart(): Promise<void>;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Runs one of the cluster's programs (pg_dump, pg_restore, …) with these arguments; answers its stdout. */
  program(name: string, args: string[]): Promise<string>;
  /** A file path in the cluster's own directory, readable and writable by its programs. */
  fileIn(name: string): string;
  /** Stops the server and removes every file of the cluster. */
  remove(): Promise<void>;
}

/**
 * Starts a new cluster with initdb and pg_ctl in a temporary directory, listening on a free loopback
 * port (its Unix socket in the same directory), so that a test can restart or stop PostgreSQL
 * without touching the machine's own server.
 */
export async function startThrowawayCluster(): Promise<ThrowawayCluster> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-pg-'));
  const dataDir = path.join(dir, 'data');
  const logFile = path.join(dir, 'server.log');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) await run('chown', ['-R', `${CLUSTER_USER}:`, dir]);
  const port = await freePort();
  const program = async (name: string, args: string[]) => {
    const file = path.join(POSTGRES_BIN, name);
    const { stdout } = asRoot
      ? await run('runuser', ['-u', CLUSTER_USER, '--', file, ...args], { cwd: dir, maxBuffer: 1 << 26 })
      : await run(file, args, { cwd: dir, maxBuffer: 1 << 26 });
    return stdout;
  };
  // fsync off: the cluster is thrown away, and a busy disk would otherwise set the pace of the test.
  const serverOptions = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c fsync=off -c max_connections=200`;
  const pgCtl = (...args: string[]) =>
    program('pg_ctl', ['-D', dataDir, '-l', logFile, '-w', '-t', '60', ...args]);

  await program('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  await pgCtl('-o', serverOptions, 'start');

  const urlOf = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  return {
    port,
    urlOf,
    async createDatabase(name) {
      const admin = new pg.Client({ connectionString: urlOf('postgres') });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      return urlOf(name);
    },
    restart: async () => void (await pgCtl('-m', 'fast', '-o', serverOptions, 'restart')),
    stop: async () => void (await pgCtl('-m', 'fast', 'stop')),
    start: async () => void (await pgCtl('-o', serverOptions, 'start')),
    program,
    fileIn: (name) => path.join(dir, name),
    async remove() {
      await pgCtl('-m', 'immediate', 'stop').catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
