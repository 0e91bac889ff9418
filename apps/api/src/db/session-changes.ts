import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/**
 * The tables the session lookup (`portal_session_lookup`, migration 0014) reads: a write to any of
 * them may change its answers. Each has a change-notice trigger (migration 0014);
 * `test/session-lookup-tables.test.ts` reads the function and the triggers from the database and
 * fails when either no longer matches this list.
 */
export const SESSION_LOOKUP_TABLES = ['session', 'user', 'member', 'organization', 'account'] as const;

/** The channel migration 0014's triggers notify on every write to what the session lookup reads. */
export const SESSION_CHANGES_CHANNEL = 'portal_session_changes';

/** How long a lost listening connection waits before it connects again. */
const RECONNECT_DELAY_MS = 1000;

export interface SessionChangeListener {
  /** What the session lookup reads may have changed: answers read before now are no longer good. */
  changed(): void;
  /** Whether changes reach the listener now; while not, it may miss some and must keep nothing. */
  live(isLive: boolean): void;
}

/**
 * Tells a listener when sessions, users, members, organisations or sign-in accounts change (the
 * tables `portal_session_lookup` reads), from this server or any other on the same database.
 */
export interface SessionChangeFeed {
  /** Starts telling `listener`; the function it answers stops. */
  subscribe(listener: SessionChangeListener): Promise<() => Promise<void>>;
}

/**
 * On PGlite every statement is this process's own, and PGlite hands a transaction's notices to its
 * listeners before the statement or transaction that sent them returns: a change is reported
 * before its writer can answer anyone.
 */
export function pgliteSessionChanges(pglite: PGlite): SessionChangeFeed {
  return {
    async subscribe(listener) {
      const unlisten = await pglite.listen(SESSION_CHANGES_CHANNEL, () => listener.changed());
      listener.live(true);
      return async () => {
        listener.live(false);
        await unlisten();
      };
    },
  };
}

/** A plain read, which changes nothing the session lookup reads (no function of the portal writes from a select). */
const READ_STATEMENT = /^\s*select\b/i;
/**
 * A statement naming a table the session lookup reads (quoted, as Drizzle writes them, or bare).
 * Those tables' foreign keys point only at one another (`test/session-lookup-tables.test.ts` checks
 * so), so no cascade from another table reaches them.
 */
const NAMES_SESSION_TABLE = new RegExp(`(?:^|\\W)"?(?:${SESSION_LOOKUP_TABLES.join('|')})"?(?!\\w)`, 'i');
/** The start of a transaction. */
const TRANSACTION_START = /^\s*(?:begin|start\s+transaction)\b/i;
/** The end of a transaction (not a rollback to a savepoint, after which the transaction goes on). */
const TRANSACTION_END = /^\s*(?:commit|end|rollback|abort)\s*;?\s*$/i;

/**
 * Whether a statement of this server, once finished, may have changed the session lookup's answers:
 * a write to one of its tables, or the end of a transaction in which there was one (`wrote`: a
 * statement since the transaction began wrote one); and whether there has been one since.
 */
export function sessionChangeBy(text: string, wrote: boolean): { reports: boolean; wrote: boolean } {
  if (READ_STATEMENT.test(text)) return { reports: false, wrote };
  if (TRANSACTION_START.test(text)) return { reports: false, wrote: false };
  if (TRANSACTION_END.test(text)) return { reports: wrote, wrote: false };
  const writesSessionTable = NAMES_SESSION_TABLE.test(text);
  return { reports: writesSessionTable, wrote: wrote || writesSessionTable };
}

/**
 * Makes the statements of a pooled connection that may change the session lookup's answers report
 * so once they have finished: a write to one of its tables, and the end of a transaction that made
 * one (a read between the two must not keep what the commit then changes). PostgreSQL's notices
 * reach this server on another connection, so one of its own writes could otherwise be answered,
 * and the writer's next request arrive, before the notice does. Other statements (the job queue's
 * polling among them) report nothing, so they leave the kept answers be. Statements of other
 * servers rely on the notices alone.
 */
function reportWritesOf(client: pg.PoolClient, changed: () => void) {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  let wrote = false;
  const reportingQuery = (...args: unknown[]) => {
    const [statement] = args;
    const text =
      typeof statement === 'string' ? statement : (statement as { text?: unknown } | undefined)?.text;
    // A statement given some other way (none of the portal's) is taken as a change.
    const change = typeof text === 'string' ? sessionChangeBy(text, wrote) : { reports: true, wrote };
    wrote = change.wrote;
    if (!change.reports) return query(...args);
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (...results: unknown[]) => {
        changed();
        return (callback as (...results: unknown[]) => unknown)(...results);
      };
      return query(...args);
    }
    const result = query(...args);
    if (result instanceof Promise) result.then(changed, changed);
    return result;
  };
  client.query = reportingQuery as typeof client.query;
}

/**
 * On PostgreSQL: the notices of every server's writes, through a connection of its own that
 * listens (and connects again after a loss, reporting itself not live meanwhile), and this
 * server's own writes as they finish.
 */
export function postgresSessionChanges(pool: pg.Pool, connectionString: string): SessionChangeFeed {
  const listeners = new Set<SessionChangeListener>();
  pool.on('connect', (client) =>
    reportWritesOf(client, () => {
      for (const listener of listeners) listener.changed();
    }),
  );
  return {
    async subscribe(listener) {
      listeners.add(listener);
      const stopListening = listenForNotices(connectionString, listener);
      return async () => {
        listeners.delete(listener);
        await stopListening();
      };
    },
  };
}

/** Listens on the channel until stopped; the listener is live exactly while the connection listens. */
function listenForNotices(connectionString: string, listener: SessionChangeListener): () => Promise<void> {
  let stopped = false;
  let listening: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const lose = (client: pg.Client) => {
    if (client !== listening) return;
    listening = undefined;
    listener.live(false);
    client.end().catch(() => undefined);
    scheduleConnect();
  };
  const scheduleConnect = () => {
    if (stopped) return;
    retry = setTimeout(connect, RECONNECT_DELAY_MS);
    retry.unref();
  };
  const connect = () => {
    const client = new pg.Client({ connectionString, keepAlive: true });
    client.on('notification', () => listener.changed());
    client.on('error', () => lose(client));
    client.on('end', () => lose(client));
    client
      .connect()
      .then(() => client.query(`LISTEN ${SESSION_CHANGES_CHANNEL}`))
      .then(() => {
        if (stopped) return client.end();
        listening = client;
        listener.live(true);
      })
      .catch(() => {
        client.end().catch(() => undefined);
        scheduleConnect();
      });
  };

  connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const client = listening;
    listening = undefined;
    listener.live(false);
    await client?.end();
  };
}
