import fp from 'fastify-plugin';
import { createMailer, type Mailer } from '../mail/mailer.ts';

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

/** Outgoing mail: SMTP when SMTP_URL is set, otherwise the development outbox in the database. */
export const mailerPlugin = fp(
  async (app) => {
    const { config, database } = app;
    app.decorate('mailer', createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, db: database.db }));
  },
  { name: 'mailer', dependencies: ['config', 'database'] },
);
