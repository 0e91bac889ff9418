import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { simpleParser, type AddressObject } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { StoredMail } from '../support/mail-store.ts';

function addresses(field: AddressObject | AddressObject[] | undefined): string[] {
  const list = Array.isArray(field) ? field : field ? [field] : [];
  return list.flatMap((group) => group.value.map((entry) => (entry.address ?? '').toLowerCase())).filter(Boolean);
}

export interface SmtpSink {
  port: number;
  close(): Promise<void>;
}

/**
 * A real SMTP server on loopback that accepts every message, parses it and writes it as one
 * JSON file into `inboxDir`, where the tests' `waitForMail` finds it.
 */
export async function startSmtpSink(inboxDir: string): Promise<SmtpSink> {
  fs.mkdirSync(inboxDir, { recursive: true });
  let sequence = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const envelopeTo = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
          const mail: StoredMail = {
            to: envelopeTo.length > 0 ? envelopeTo : addresses(parsed.to),
            from: addresses(parsed.from)[0] ?? '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            receivedAt: Date.now(),
          };
          sequence += 1;
          const name = `${String(mail.receivedAt)}-${String(sequence).padStart(5, '0')}.json`;
          // Written under a temporary name and renamed, so a reader never sees half a file.
          const target = path.join(inboxDir, name);
          fs.writeFileSync(`${target}.tmp`, JSON.stringify(mail));
          fs.renameSync(`${target}.tmp`, target);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
