import type { FastifyInstance, InjectOptions } from 'fastify';

/**
 * A fetch for traffic between the portal and the systems it hosts: calls to the portal's own origin
 * (the embedded regions' admin API, and from them the JWKS, application and session checks; the
 * embedded card sandbox's merchant API) go through the portal's request pipeline in process,
 * exactly as HTTP requests would, without depending on PUBLIC_URL being reachable from the server
 * itself (a TLS proxy in front, say).
 * Calls to any other origin go out over the network.
 */
export function portalFetch(app: FastifyInstance, publicUrl: string): typeof fetch {
  const portalOrigin = new URL(publicUrl).origin;
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.origin !== portalOrigin) return fetch(request);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const answer = await app.inject({
      method: request.method as InjectOptions['method'],
      url: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(request.headers),
      ...(body ? { payload: body } : {}),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      for (const item of Array.isArray(value) ? value : [value])
        if (item !== undefined) headers.append(name, String(item));
    }
    const empty = answer.statusCode === 204 || answer.statusCode === 304 || request.method === 'HEAD';
    return new Response(empty ? null : new Uint8Array(answer.rawPayload), { status: answer.statusCode, headers });
  };
}
