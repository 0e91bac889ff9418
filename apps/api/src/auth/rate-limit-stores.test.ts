import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { redisRateLimitStore } from './rate-limit-stores.ts';

const REDIS_SERVER = '/usr/bin/redis-server';

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  return port;
}

/** A Redis server of this test's own (never the machine's), answering once it says it is ready. */
async function startRedis(port: number): Promise<ChildProcess> {
  const server = spawn(
    REDIS_SERVER,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    server.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve();
    });
    server.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
  });
  return server;
}

describe('the Redis store of the rate limits', () => {
  const servers: ChildProcess[] = [];
  afterEach(() => {
    for (const server of servers.splice(0)) server.kill('SIGKILL');
  });

  it('refuses with 503 SERVICE_UNAVAILABLE while Redis is away, and counts again once it is back', async () => {
    const port = await freePort();
    servers.push(await startRedis(port));
    const errors: unknown[] = [];
    const store = await redisRateLimitStore({
      url: `redis://127.0.0.1:${port}`,
      keyPrefix: 'test:',
      onError: (error) => errors.push(error),
    });
    try {
      expect((await store.hit('a', 60_000)).hits).toBe(1);

      const stopped = servers.pop()!;
      stopped.kill('SIGKILL');
      await once(stopped, 'exit');
      const refusal = await store.hit('a', 60_000).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(AppError);
      expect(refusal).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
      await expect(store.peek('a')).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(errors.length).toBeGreaterThan(0);

      // A new, empty server on the same port: the store reconnects by itself.
      servers.push(await startRedis(port));
      let window: { hits: number } | undefined;
      while (!window) {
        window = await store.hit('b', 60_000).catch(async () => {
          await new Promise((resolve) => setTimeout(resolve, 100));
          return undefined;
        });
      }
      expect(window.hits).toBe(1);
    } finally {
      await store.close().catch(() => undefined);
    }
  }, 60_000);
});
