import nodemailer from 'nodemailer';
import type { Db } from '../db/client.ts';
import { mailMessage } from '../db/schema.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(mail: OutgoingMail): Promise<void>;
}

/** Real SMTP delivery through nodemailer. */
function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    kind: 'smtp',
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
  };
}

/**
 * The development outbox: nodemailer composes the message as it would for SMTP, and the
 * result is stored in the database for /dev/mailbox instead of leaving the machine.
 */
function outboxMailer(db: Db, from: string): Mailer {
  const transport = nodemailer.createTransport({ jsonTransport: true });
  return {
    kind: 'outbox',
    async send(mail) {
      await transport.sendMail({ from, ...mail });
      await db.insert(mailMessage).values({
        toAddress: mail.to,
        fromAddress: from,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
    },
  };
}

export function createMailer(options: { smtpUrl: string | undefined; from: string; db: Db }): Mailer {
  return options.smtpUrl ? smtpMailer(options.smtpUrl, options.from) : outboxMailer(options.db, options.from);
}
