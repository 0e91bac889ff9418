import fp from 'fastify-plugin';
import { AUTH_SECRET_FILE, OPERATOR_TOKEN_FILE, shareDataDirSecrets } from '../auth/secret.ts';
import type { Config } from '../config.ts';
import { CARD_SANDBOX_KEY_FILES } from '../payments/embedded-card-sandbox.ts';
import { REGION_ADMIN_TOKEN_FILE } from '../regions/embedded-regions.ts';

/** The data-dir secrets this configuration leaves to the portal to generate. */
function generatedSecretFiles(config: Config): string[] {
  const sandbox = config.payments.provider === 'sandbox' ? config.payments.cardSandbox : undefined;
  return [
    ...(config.authSecret ? [] : [AUTH_SECRET_FILE]),
    ...(config.operatorToken ? [] : [OPERATOR_TOKEN_FILE]),
    ...(config.regionAdminToken ? [] : [REGION_ADMIN_TOKEN_FILE]),
    ...(sandbox?.embedded && !sandbox.secretKey ? [CARD_SANDBOX_KEY_FILES.secretKey] : []),
    ...(sandbox?.embedded && !sandbox.publishableKey ? [CARD_SANDBOX_KEY_FILES.publishableKey] : []),
  ];
}

/**
 * On PostgreSQL, before anything reads a generated secret: every instance gets the same (one per
 * process would sign sessions, access tokens and invoice links that the other instances refuse).
 * PGlite is one process on one data dir, where the secrets already are.
 */
export const sharedSecretsPlugin = fp(
  async (app) => {
    const { config, database } = app;
    if (database.kind !== 'postgres') return;
    await shareDataDirSecrets(database.db, config.dataDir, generatedSecretFiles(config));
  },
  { name: 'shared-secrets', dependencies: ['config', 'database'] },
);
