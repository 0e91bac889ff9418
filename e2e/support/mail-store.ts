import fs from 'node:fs';
import path from 'node:path';

/** One message as the SMTP sink received it. */
export interface StoredMail {
  /** Envelope recipients, lower-cased. */
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  /** Epoch milliseconds when the sink accepted it. */
  receivedAt: number;
}

export const MAIL_DIR_ENV = 'E2E_MAIL_DIR';

function inboxDir(): string {
  const dir = process.env[MAIL_DIR_ENV];
  if (!dir) throw new Error(`${MAIL_DIR_ENV} is not set: run the tests through e2e/playwright.config.ts`);
  return dir;
}

function readInbox(): StoredMail[] {
  const dir = inboxDir();
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as StoredMail);
}

export interface WaitForMailOptions {
  /** Only mail received at or after this time (epoch ms) counts. */
  since?: number;
  timeoutMs?: number;
}

const POLL_INTERVAL_MS = 100;

/** The newest mail to `to` whose subject matches, waiting for it to arrive. */
export async function waitForMail(to: string, subject: RegExp, options: WaitForMailOptions = {}): Promise<StoredMail> {
  const { since = 0, timeoutMs = 15_000 } = options;
  const recipient = to.toLowerCase();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = readInbox()
      .filter((mail) => mail.to.includes(recipient) && subject.test(mail.subject) && mail.receivedAt >= since)
      .at(-1);
    if (match) return match;
    if (Date.now() > deadline) {
      const seen = readInbox()
        .filter((mail) => mail.to.includes(recipient))
        .map((mail) => `"${mail.subject}"`);
      throw new Error(`no mail to ${to} matching ${String(subject)} within ${timeoutMs} ms (mail to it: ${seen.join(', ') || 'none'})`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
}

/** Every mail the sink holds for an address, oldest first. */
export function mailsTo(to: string): StoredMail[] {
  const recipient = to.toLowerCase();
  return readInbox().filter((mail) => mail.to.includes(recipient));
}

/** The first link in the mail's text whose path is `pathname` (for example /confirm-user). */
export function linkIn(mail: StoredMail, pathname: string): URL {
  for (const candidate of mail.text.match(/https?:\/\/[^\s<>"']+/g) ?? []) {
    const url = new URL(candidate);
    if (url.pathname === pathname) return url;
  }
  throw new Error(`no ${pathname} link in mail "${mail.subject}":\n${mail.text}`);
}
