import { parseArgs } from 'node:util';
import { createSdkSession, parseRegion, regionBaseUrl } from './sdk-client.ts';

const USAGE =
  'usage: npm run sdk -- ping --region <sg|eu|us> --api-key <key> --user <userId> [--base-url http://localhost:3000]';

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      region: { type: 'string' },
      'api-key': { type: 'string' },
      user: { type: 'string' },
      'base-url': { type: 'string', default: process.env.PUBLIC_URL ?? 'http://localhost:3000' },
    },
  });
  if (positionals[0] !== 'ping' || !values.region || !values['api-key'] || !values.user)
    throw new Error(USAGE);
  const region = parseRegion(values.region);
  const baseUrl = regionBaseUrl(region, values['base-url']);
  const session = await createSdkSession(baseUrl, values['api-key'], values.user);
  console.log(
    `Connected to ${region} (${baseUrl}) as ${session.userId}: session ${session.sessionId} on network ${session.networkId}`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
