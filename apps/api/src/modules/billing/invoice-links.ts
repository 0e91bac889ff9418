import { padTransactionId } from '@portal/contracts';
/**
 * Signed links to an invoice PDF. The report endpoint answers one to a member allowed to see the
 * invoice; the browser opens it in a new tab, where it works without a session until it expires.
 * The signature is an HMAC over the transaction id and the expiry, so a link with either changed
 * is refused.
 */
import crypto from 'node:crypto';
import type { InvoiceLinkQuery } from '@portal/contracts';

/** How long a link opens the invoice. */
export const INVOICE_LINK_LIFETIME_MS = 10 * 60_000;
/** Where the invoice PDFs are served: `/api/v1/invoices/{id}.pdf`. */
export const INVOICE_LINKS_PREFIX = '/api/v1/invoices';

/** What a link is: `valid`, or why it is refused. */
export type InvoiceLinkCheck = 'valid' | 'invalid' | 'expired';

/**
 * The key that signs invoice links, derived from the auth secret (HKDF) so that no other value signed
 * with that secret is also a valid link, and links stop working when the secret is changed.
 */
export function invoiceLinkKey(authSecret: string): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', authSecret, '', 'portal invoice links', 32));
}

export interface InvoiceLinksDeps {
  key: Buffer;
  /** The portal's origin, which the links start with. */
  publicUrl: string;
  /** Milliseconds since the epoch; tests move it. */
  now?: () => number;
}

export function invoiceLinks({ key, publicUrl, now = Date.now }: InvoiceLinksDeps) {
  const signatureOf = (transactionId: number, expires: number) =>
    crypto.createHmac('sha256', key).update(`${transactionId}.${expires}`).digest();

  return {
    /** A link to the transaction's invoice that expires INVOICE_LINK_LIFETIME_MS from now. */
    sign(transactionId: number): string {
      const expires = Math.ceil((now() + INVOICE_LINK_LIFETIME_MS) / 1000);
      const url = new URL(`${publicUrl}${INVOICE_LINKS_PREFIX}/${padTransactionId(transactionId)}.pdf`);
      url.searchParams.set('expires', String(expires));
      url.searchParams.set('signature', signatureOf(transactionId, expires).toString('base64url'));
      return url.toString();
    },

    /** Whether a link was signed here for this transaction and has not expired yet. */
    check(transactionId: number, { expires, signature }: InvoiceLinkQuery): InvoiceLinkCheck {
      if (!/^\d{1,12}$/.test(expires)) return 'invalid';
      const expected = signatureOf(transactionId, Number(expires));
      const presented = Buffer.from(signature, 'base64url');
      if (presented.length !== expected.length || !crypto.timingSafeEqual(presented, expected))
        return 'invalid';
      return now() < Number(expires) * 1000 ? 'valid' : 'expired';
    },
  };
}
export type InvoiceLinks = ReturnType<typeof invoiceLinks>;

const REFUSALS: Record<
  Exclude<InvoiceLinkCheck, 'valid'>,
  { status: 403 | 410; title: string; reason: string }
> = {
  invalid: {
    status: 403,
    title: 'This invoice link is not valid',
    reason: 'It may have been changed or cut short.',
  },
  expired: {
    status: 410,
    title: 'This invoice link has expired',
    reason: `Invoice links work for ${INVOICE_LINK_LIFETIME_MS / 60_000} minutes.`,
  },
};

/** The page a person sees when the link they opened is refused: why, and where to get a new one. */
export function invoiceLinkRefusal(check: Exclude<InvoiceLinkCheck, 'valid'>) {
  const { status, title, reason } = REFUSALS[check];
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#222}a{color:#1c64f2}</style>
</head>
<body>
<main>
<h1>${title}</h1>
<p>${reason} Download the invoice again from Billing.</p>
<p><a href="/billing/asc">Go to Billing</a></p>
</main>
</body>
</html>
`;
  return { status, page };
}
