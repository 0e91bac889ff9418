import { openCardSandboxStore, registerCardSandbox } from '@portal/card-sandbox';
import type { FastifyInstance } from 'fastify';
import { resolveDataDirSecret } from '../auth/secret.ts';
import { EMBEDDED_CARD_SANDBOX_PATH, type CardSandboxConfig, type Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { withStartupLock } from '../db/startup-lock.ts';

/**
 * The sandbox's keys: CARD_SANDBOX_SECRET_KEY and CARD_SANDBOX_PUBLISHABLE_KEY, or (for the sandbox
 * the portal hosts) keys generated once into the data dir, so restarts keep them.
 */
/** The files in the data dir that hold the hosted sandbox's generated keys. */
export const CARD_SANDBOX_KEY_FILES = {
  secretKey: 'card-sandbox-secret-key',
  publishableKey: 'card-sandbox-publishable-key',
} as const;

export function cardSandboxKeys(config: Pick<Config, 'dataDir'>, sandbox: CardSandboxConfig) {
  return {
    secretKey:
      sandbox.secretKey ??
      `sk_sandbox_${resolveDataDirSecret(undefined, config.dataDir, CARD_SANDBOX_KEY_FILES.secretKey)}`,
    publishableKey:
      sandbox.publishableKey ??
      `pk_sandbox_${resolveDataDirSecret(undefined, config.dataDir, CARD_SANDBOX_KEY_FILES.publishableKey)}`,
  };
}

/**
 * Hosts the sandbox payment gateway under /card-sandbox of the portal's own port when it is the
 * payment provider and CARD_SANDBOX_URL names no other, with its records in the `card_sandbox`
 * schema of the portal database. The portal then reaches it over HTTP as it would a remote gateway.
 */
export async function mountEmbeddedCardSandbox(
  app: FastifyInstance,
  deps: { config: Config; database: Database },
) {
  const { config, database } = deps;
  if (config.payments.provider !== 'sandbox' || !config.payments.cardSandbox.embedded) return;
  const executor = database.pglite ?? database.pool;
  if (!executor) throw new Error('The embedded card sandbox needs the portal database connection.');
  // Instances starting at once would both create the sandbox's tables: they take turns.
  const open = () => openCardSandboxStore({ executor });
  const { store } = await (database.pool
    ? withStartupLock(database.pool, 'embedded-stand-ins', open)
    : open());
  await registerCardSandbox(app, {
    prefix: EMBEDDED_CARD_SANDBOX_PATH,
    store,
    ...cardSandboxKeys(config, config.payments.cardSandbox),
  });
}
