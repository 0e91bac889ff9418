import crypto from 'node:crypto';
import { createClient } from '@redis/client';

/** The Redis server tests use: TEST_REDIS_URL, or the one on this machine. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether the test Redis server answers a PING within a second; tests that need it run only then. */
export async function redisAnswers(): Promise<boolean> {
  const client = createClient({
    url: TEST_REDIS_URL,
    socket: { connectTimeout: 1000, reconnectStrategy: false },
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    if (client.isOpen) await client.close();
  }
}

/**
 * The portal's settings for counting in the test Redis server, under a prefix of its own, so test
 * files (and runs) at once never share a counter. The keys expire with their windows.
 */
export function redisStoreEnv(): Record<string, string> {
  return {
    REDIS_URL: TEST_REDIS_URL,
    REDIS_KEY_PREFIX: `portal-test:${crypto.randomBytes(6).toString('hex')}:`,
  };
}
