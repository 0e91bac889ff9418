/**
 * A small load balancer for the scale test and benchmark: @fastify/reply-from does the proxying;
 * this file only picks the next upstream in turn and names the client in X-Forwarded-For, as a
 * proxy in front of the portal does (nginx's $proxy_add_x_forwarded_for).
 *
 * Run as its own process: `node --import tsx round-robin-proxy.ts <port> <upstream> <upstream> …`;
 * it prints `listening <url>` once it accepts connections.
 */
import { fileURLToPath } from 'node:url';
import replyFrom from '@fastify/reply-from';
import Fastify, { type FastifyInstance } from 'fastify';

export function roundRobinProxy(upstreams: readonly string[]): FastifyInstance {
  if (upstreams.length === 0) throw new Error('The proxy needs at least one upstream.');
  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
  let next = 0;
  const pickUpstream = () => {
    const upstream = upstreams[next]!;
    next = (next + 1) % upstreams.length;
    return upstream;
  };
  // Bodies pass through as they came, whatever their type.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  void app.register(replyFrom, { undici: { connections: 128, pipelining: 1 } });
  app.all('/*', (request, reply) =>
    reply.from(request.url, {
      getUpstream: pickUpstream,
      // The portal's own answers, 503 included, go back as they are: a retry here would hide from
      // the test what the portal answered.
      retryDelay: () => null,
      rewriteRequestHeaders: (original, headers) => {
        const forwardedFor = original.headers['x-forwarded-for'];
        const peer = original.socket.remoteAddress ?? '';
        return { ...headers, 'x-forwarded-for': forwardedFor ? `${forwardedFor}, ${peer}` : peer };
      },
    }),
  );
  return app;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [port, ...upstreams] = process.argv.slice(2);
  const app = roundRobinProxy(upstreams);
  const url = await app.listen({ port: Number(port), host: '127.0.0.1' });
  console.log(`listening ${url}`);
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}
