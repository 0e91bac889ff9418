import type { FastifyError } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../db/client.ts';
import { AppError, validationError } from '../errors.ts';

/**
 * One place that turns every failure into `{code, message}`; 5xx details stay in the log. Registered
 * before any route: a route keeps the error handler in place where it was declared.
 */
export const errorHandlerPlugin = fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof AppError) {
        return reply.status(error.status).send(error.toBody());
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const issues = error.validation.map((v) => ({
          path: [v.instancePath.replace(/^\//, '').replace(/\//g, '.') || 'body'],
          message: v.message ?? 'errors.validation',
        }));
        return reply.status(400).send(validationError(issues).toBody());
      }
      // A database restart or failover: the request failed before it could do anything lasting (a
      // transaction cut off is rolled back), and may be sent again in a moment.
      if (isDatabaseUnavailable(error)) {
        request.log.warn({ err: error }, 'database unavailable');
        reply.header('retry-after', '1');
        return reply.status(503).send(new AppError('SERVICE_UNAVAILABLE').toBody());
      }
      const status = error.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        const code = status === 429 ? 'RATE_LIMITED' : status === 413 ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST';
        return reply.status(status).send({ code, message: error.message });
      }
      request.log.error({ err: error }, 'request failed');
      return reply.status(500).send(new AppError('INTERNAL_ERROR').toBody());
    });
  },
  { name: 'error-handler' },
);
