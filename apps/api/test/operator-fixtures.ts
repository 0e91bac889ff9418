import type { AddressInfo } from 'node:net';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { main } from '../src/cli/portal-cli.ts';
import { jsonRequest } from './helper.ts';

/** A test file's portal, filled in when its tests start (useTestApp). */
interface Portal {
  app: FastifyInstance;
}

/** The operator API of the portal through inject, with the operator token as its bearer. */
export function operatorApi(portal: Portal, token: string) {
  return (method: InjectOptions['method'], url: string, body?: unknown) => {
    const request = jsonRequest(method, `/api/operator/v1${url}`, body);
    return portal.app.inject({
      ...request,
      headers: { ...request.headers, authorization: `Bearer ${token}` },
    });
  };
}

/**
 * The operator CLI's main function against the portal, listening on a free loopback port once
 * `listen` has run, as an operator runs it: each call answers the exit code and what was printed.
 */
export function operatorCli(portal: Portal, token: string) {
  let portalUrl = '';
  return {
    async listen() {
      await portal.app.listen({ port: 0, host: '127.0.0.1' });
      portalUrl = `http://127.0.0.1:${(portal.app.server.address() as AddressInfo).port}`;
    },
    async run(...argv: string[]) {
      let stdout = '';
      let stderr = '';
      const code = await main(argv, {
        env: { PORTAL_URL: portalUrl, OPERATOR_TOKEN: token },
        stdout: { write: (text: string) => (stdout += text) },
        stderr: { write: (text: string) => (stderr += text) },
      });
      return { code, stdout, stderr };
    },
  };
}
