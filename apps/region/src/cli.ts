import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { REGION_KEYS } from '@portal/contracts';
import { createRegionApp, DEFAULT_PROVISIONING_DELAY_MS } from './app.ts';
import { parseRegion } from './sdk-client.ts';
import { openRegionStore } from './store.ts';

const USAGE = `usage: npm run region -- --admin-token <token> [--port 4100] [--host 127.0.0.1] [--regions SG,EU,US]
  [--portal-url http://localhost:3000] [--portal-origin <origin>[,<origin>…]] [--public-base-url http://localhost:<port>]
  [--data-dir ./data/region | --database-url postgres://…] [--provisioning-delay-ms ${DEFAULT_PROVISIONING_DELAY_MS}]`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '4100' },
      host: { type: 'string', default: '127.0.0.1' },
      regions: { type: 'string', default: REGION_KEYS.join(',') },
      'portal-url': { type: 'string', default: process.env.PUBLIC_URL ?? 'http://localhost:3000' },
      // Origins whose pages may call the regions from the browser (CORS); the portal URL's by default.
      'portal-origin': { type: 'string', default: process.env.PORTAL_ORIGINS },
      'admin-token': { type: 'string', default: process.env.REGION_ADMIN_TOKEN },
      'public-base-url': { type: 'string' },
      'data-dir': { type: 'string', default: process.env.REGION_DATA_DIR ?? path.join('data', 'region') },
      'database-url': { type: 'string', default: process.env.REGION_DATABASE_URL },
      'provisioning-delay-ms': { type: 'string', default: String(DEFAULT_PROVISIONING_DELAY_MS) },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const adminToken = values['admin-token'];
  if (!adminToken) throw new Error(`--admin-token (or REGION_ADMIN_TOKEN) is required\n${USAGE}`);
  const port = Number(values.port);
  const provisioningDelayMs = Number(values['provisioning-delay-ms']);
  if (!Number.isInteger(port) || port < 0) throw new Error(`--port must be a port number\n${USAGE}`);
  if (!Number.isInteger(provisioningDelayMs) || provisioningDelayMs < 0)
    throw new Error('--provisioning-delay-ms must be a whole number of milliseconds');
  const regions = [...new Set(values.regions.split(',').map((r) => parseRegion(r.trim())))];
  const portalOrigins = (values['portal-origin'] ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  for (const origin of portalOrigins) {
    if (!URL.canParse(origin) || new URL(origin).origin !== origin.replace(/\/+$/, ''))
      throw new Error(`--portal-origin: ${origin} is not an origin (scheme://host[:port])\n${USAGE}`);
  }

  const pool = values['database-url'] ? new pg.Pool({ connectionString: values['database-url'] }) : undefined;
  const { store, close } = await openRegionStore(
    pool
      ? { executor: pool }
      : { dataDir: values['data-dir'] === 'memory://' ? undefined : values['data-dir'] },
  );
  const app = await createRegionApp({
    regions,
    portalUrl: values['portal-url'],
    portalOrigins,
    adminToken,
    publicBaseUrl: values['public-base-url'] ?? `http://localhost:${port}`,
    provisioningDelayMs,
    store,
    logger: true,
  });
  app.addHook('onClose', async () => {
    await close();
    await pool?.end();
  });
  const address = await app.listen({ port, host: values.host });
  // The line tests and scripts read to learn the port when --port 0 is used.
  console.log(`region emulator (${regions.join(', ')}) listening on ${address}`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void app.close().then(() => process.exit(0)));
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
