import type { RegionalSessionCheckRequest } from '@portal/contracts';
import type { SessionVerifier } from '../../auth/session.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { findViewableApplication } from '../applications/applications.service.ts';

export function regionalSessionsService(deps: { db: Db; sessions: SessionVerifier }) {
  return {
    /**
     * Allowed while the portal session is live and its member may view the application, by the same
     * rules as GET /api/v1/applications/{id}; 404 when the session ended (signed out, expired,
     * member deleted), 403 or 404 when the member may no longer see the application.
     */
    async check({ sessionId, applicationId }: RegionalSessionCheckRequest) {
      const user = await deps.sessions.fromSessionId(sessionId);
      if (!user) throw new AppError('NOT_FOUND', { message: 'The portal session has ended.' });
      await findViewableApplication(deps.db, user, applicationId);
      return { allowed: true as const, userId: user.userId };
    },
  };
}
