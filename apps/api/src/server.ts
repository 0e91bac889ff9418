import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { DataDirLockedError } from './db/data-dir-lock.ts';
import { openDatabase } from './db/client.ts';

async function main() {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const app = await buildApp({ config, database });
  const shutdown = async () => {
    await app.close();
    await database.close();
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
