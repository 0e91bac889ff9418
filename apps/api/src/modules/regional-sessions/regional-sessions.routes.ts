import {
  REGIONAL_SESSION_CHECK_PATH,
  RegionalSessionCheckRequestSchema,
  RegionalSessionCheckResponseSchema,
} from '@portal/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { isSameSecret } from '../../auth/secret.ts';
import { AppError } from '../../errors.ts';
import { regionAdminToken } from '../../regions/embedded-regions.ts';
import { regionalSessionsService } from './regional-sessions.service.ts';

/**
 * The regions' re-check of a regional session (server to server, bearer REGION_ADMIN_TOKEN): the
 * region asks on every request the session makes, so the portal's answer decides at once.
 */
export async function regionalSessionsRoutes(app: FastifyInstance) {
  const service = regionalSessionsService({ db: app.database.db, sessions: app.sessions });
  const adminToken = regionAdminToken(app.config);
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.addHook('onRequest', async (request) => {
    const token = request.headers.authorization?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
    if (!token || !isSameSecret(token, adminToken)) throw new AppError('UNAUTHORIZED');
  });

  r.post(
    REGIONAL_SESSION_CHECK_PATH,
    {
      schema: {
        body: RegionalSessionCheckRequestSchema,
        response: { 200: RegionalSessionCheckResponseSchema },
      },
    },
    async (request) => service.check(request.body),
  );
}
