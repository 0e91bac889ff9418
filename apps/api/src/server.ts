import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { DataDirLockedError } from './db/data-dir-lock.ts';
import { openDatabase } from './db/client.ts';

async function main() {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const app = await buildApp({ config, database });
  // Stops accepting connections, lets the requests and jobs under way finish, then closes the
  // database. Past SHUTDOWN_TIMEOUT_SECONDS it exits anyway, with 1: a job cut off is retried after
  // its expiry, as after a crash.
  const shutdown = async (signal: NodeJS.Signals) => {
    app.log.info({ signal }, 'shutting down: finishing the requests and jobs under way');
    setTimeout(() => {
      app.log.error(
        `still not stopped after SHUTDOWN_TIMEOUT_SECONDS (${config.shutdownTimeoutSeconds} s): exiting`,
      );
      process.exit(1);
    }, config.shutdownTimeoutSeconds * 1000).unref();
    try {
      await app.close();
      await database.close();
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  await app.listen({ port: config.port, host: config.host });
  const where = database.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL';
  const mail =
    app.mailer.kind !== 'outbox'
      ? ''
      : config.devMailbox
        ? `, mail in ${config.publicUrl}/dev/mailbox (readable by anyone who reaches this port)`
        : ', mail kept in the database outbox; /dev/mailbox is not mounted (HOST is not loopback; DEV_MAILBOX=true mounts it)';
  console.log(`Developer portal ready at ${config.publicUrl} (${where}${mail})`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
