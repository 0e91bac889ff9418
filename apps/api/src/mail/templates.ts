import type { OutgoingMail } from './mailer.ts';
import { escapeHtml } from '../http/escape-html.ts';

interface CodeMailInput {
  to: string;
  portalName: string;
  code: string;
  link: string;
  expiresInMinutes: number;
}

function codeMail(
  input: CodeMailInput,
  copy: { subject: string; intro: string; action: string; ignore: string },
): OutgoingMail {
  const { portalName, code, link, expiresInMinutes } = input;
  const text = [
    `${portalName}`,
    '',
    copy.intro,
    '',
    `${copy.action}: ${link}`,
    '',
    `Or enter this code: ${code}`,
    '',
    `The code expires in ${expiresInMinutes} minutes. ${copy.ignore}`,
  ].join('\n');
  const html = `<!doctype html>
<html lang="en"><body style="font-family:Arial,sans-serif;color:#1a1b1e;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:20px">${escapeHtml(portalName)}</h1>
<p>${escapeHtml(copy.intro)}</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;background:#1864ab;color:#fff;padding:10px 18px;border-radius:4px;text-decoration:none">${escapeHtml(copy.action)}</a></p>
<p>Or enter this code: <strong style="font-size:18px;letter-spacing:2px">${escapeHtml(code)}</strong></p>
<p style="color:#495057;font-size:13px">The code expires in ${expiresInMinutes} minutes. ${escapeHtml(copy.ignore)}</p>
</body></html>`;
  return { to: input.to, subject: copy.subject, text, html };
}

export function verificationMail(input: CodeMailInput): OutgoingMail {
  return codeMail(input, {
    subject: `Verify your email for ${input.portalName}`,
    intro: 'Thanks for signing up. Confirm your email address to finish creating your account.',
    action: 'Verify email',
    ignore: 'If you did not sign up, you can ignore this message.',
  });
}

export function passwordResetMail(input: CodeMailInput): OutgoingMail {
  return codeMail(input, {
    subject: `Reset your ${input.portalName} password`,
    intro: 'We received a request to reset your password.',
    action: 'Choose a new password',
    ignore: 'If you did not ask for this, you can ignore this message; your password stays the same.',
  });
}

export interface InvitationMailInput {
  to: string;
  portalName: string;
  organizationName: string;
  inviterName: string;
  roleName: string;
  link: string;
  expiresInDays: number;
}

/** The invitation: a link to /invitation-signup carrying the code; the code itself is never shown alone. */
export function invitationMail(input: InvitationMailInput): OutgoingMail {
  const { portalName, organizationName, inviterName, roleName, link, expiresInDays } = input;
  const intro = `${inviterName} invited you to join ${organizationName} on the ${portalName} as ${roleName}.`;
  const expiry = `The invitation expires in ${expiresInDays} days. If you did not expect it, you can ignore this message.`;
  const text = [portalName, '', intro, '', `Accept the invitation: ${link}`, '', expiry].join('\n');
  const html = `<!doctype html>
<html lang="en"><body style="font-family:Arial,sans-serif;color:#1a1b1e;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:20px">${escapeHtml(portalName)}</h1>
<p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;background:#1864ab;color:#fff;padding:10px 18px;border-radius:4px;text-decoration:none">Accept the invitation</a></p>
<p style="color:#495057;font-size:13px">${escapeHtml(expiry)}</p>
</body></html>`;
  return {
    to: input.to,
    subject: `You are invited to join ${organizationName} on the ${portalName}`,
    text,
    html,
  };
}

export interface AccountInactiveMailInput {
  to: string;
  portalName: string;
  organizationName: string;
  invoiceNumber: string;
  /** The amount still due, formatted (`USD 65.00`). */
  dueAmount: string;
  link: string;
  deactivationDays: number;
}

/** To a super-admin when an amount left due makes the account inactive. */
export function accountInactiveMail(input: AccountInactiveMailInput): OutgoingMail {
  const { portalName, organizationName, invoiceNumber, dueAmount, link, deactivationDays } = input;
  const intro = `The ${organizationName} account on the ${portalName} is inactive: ${dueAmount} of invoice ${invoiceNumber} is due.`;
  const warning = `All applications will be deactivated within ${deactivationDays} days unless the due amount is paid.`;
  const text = [portalName, '', intro, '', warning, '', `Sign in to pay it: ${link}`].join('\n');
  const html = `<!doctype html>
<html lang="en"><body style="font-family:Arial,sans-serif;color:#1a1b1e;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:20px">${escapeHtml(portalName)}</h1>
<p>${escapeHtml(intro)}</p>
<p><strong>${escapeHtml(warning)}</strong></p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;background:#1864ab;color:#fff;padding:10px 18px;border-radius:4px;text-decoration:none">Sign in to pay it</a></p>
</body></html>`;
  return { to: input.to, subject: `Your ${portalName} account is inactive`, text, html };
}

interface PaymentReceiptMailInput {
  to: string;
  portalName: string;
  organizationName: string;
  /** "USD 1,043.50" */
  amount: string;
  /** "VISA ending in 4242" */
  card: string;
  /** What was paid: "Top-up of the prepaid balance" or "Invoice INV-000000042". */
  paidFor: string;
  /** The transaction's page in the portal, with its invoice. */
  link: string;
}

/** The receipt of a successful card payment. */
export function paymentReceiptMail(input: PaymentReceiptMailInput): OutgoingMail {
  const { portalName, organizationName, amount, card, paidFor, link } = input;
  const intro = `${organizationName} paid ${amount} with the ${card}.`;
  const text = [
    portalName,
    '',
    'Payment receipt',
    '',
    intro,
    `For: ${paidFor}`,
    '',
    `See it and its invoice: ${link}`,
  ].join('\n');
  const html = `<!doctype html>
<html lang="en"><body style="font-family:Arial,sans-serif;color:#1a1b1e;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:20px">${escapeHtml(portalName)}</h1>
<h2 style="font-size:16px">Payment receipt</h2>
<p>${escapeHtml(intro)}</p>
<p>For: ${escapeHtml(paidFor)}</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;background:#1864ab;color:#fff;padding:10px 18px;border-radius:4px;text-decoration:none">See it and its invoice</a></p>
</body></html>`;
  return { to: input.to, subject: `Your ${portalName} payment receipt: ${amount}`, text, html };
}

interface LowBalanceMailInput {
  to: string;
  portalName: string;
  organizationName: string;
  /** "USD 12.40" */
  balance: string;
  /** "USD 118.00" */
  lastMonth: string;
  /** The payment page for a top-up. */
  link: string;
}

/** A notice of a few paragraphs and one button: the same in the text and the HTML part. */
function paragraphsMail(
  to: string,
  portalName: string,
  copy: { subject: string; paragraphs: readonly string[]; action: string; link: string },
): OutgoingMail {
  const { subject, paragraphs, action, link } = copy;
  const text = [
    portalName,
    '',
    ...paragraphs.flatMap((paragraph) => [paragraph, '']),
    `${action}: ${link}`,
  ].join('\n');
  const html = `<!doctype html>
<html lang="en"><body style="font-family:Arial,sans-serif;color:#1a1b1e;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:20px">${escapeHtml(portalName)}</h1>
${paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join('\n')}
<p><a href="${escapeHtml(link)}" style="display:inline-block;background:#1864ab;color:#fff;padding:10px 18px;border-radius:4px;text-decoration:none">${escapeHtml(action)}</a></p>
</body></html>`;
  return { to, subject, text, html };
}

/** The warning that the prepaid balance will not cover a month like the last one. */
export function lowBalanceMail(input: LowBalanceMailInput): OutgoingMail {
  const { portalName, organizationName, balance, lastMonth, link } = input;
  return paragraphsMail(input.to, portalName, {
    subject: `Your ${portalName} balance is running low`,
    paragraphs: [
      `The prepaid balance of ${organizationName} is ${balance}, less than last month's charge of ${lastMonth}.`,
      'Top up now so that this month is paid from the balance: an account whose balance cannot pay its charge becomes inactive.',
    ],
    action: 'Top up',
    link,
  });
}

interface UsageAlertMailInput {
  to: string;
  portalName: string;
  /** What was crossed, for the subject: "80 % of the licence used". */
  headline: string;
  /** The figure and the threshold in a sentence. */
  summary: string;
  /** Where the figures and the alerts' settings are, and what the button says. */
  action: string;
  link: string;
}

/** A usage alert's threshold crossed (decision 044), once a month each. */
export function usageAlertMail(input: UsageAlertMailInput): OutgoingMail {
  const { portalName, headline, summary, action, link } = input;
  return paragraphsMail(input.to, portalName, {
    subject: `${portalName} usage alert: ${headline}`,
    paragraphs: [
      summary,
      'You get this mail once a month for each alert crossed. The super-admins of the organization can change the alerts and who is told on the Subscription and licenses page.',
    ],
    action,
    link,
  });
}

interface TwoFactorResetMailInput {
  to: string;
  portalName: string;
  /** A second factor was removed; otherwise only the sessions were ended. */
  hadSecondFactor: boolean;
  /** The organisation requires a second factor, so the next sign-in asks for a new one. */
  requireTwoFactor: boolean;
  signInLink: string;
  passwordResetLink: string;
}

/**
 * To a person whose second factor the portal's operator removed, so that the owner of the account
 * learns of it whoever asked for it.
 */
export function twoFactorResetMail(input: TwoFactorResetMailInput): OutgoingMail {
  const { portalName, hadSecondFactor, requireTwoFactor, signInLink, passwordResetLink } = input;
  const intro = hadSecondFactor
    ? `The operator of the ${portalName} removed the two-factor authentication (authenticator app and backup codes) of your account ${input.to} and signed you out everywhere.`
    : `The operator of the ${portalName} signed your account ${input.to} out everywhere.`;
  const signIn = hadSecondFactor ? 'Sign in without a code' : 'Sign in again';
  const next = requireTwoFactor
    ? `${signIn}; your organisation requires two-factor authentication, so you will set up an authenticator app.`
    : `${signIn}; you can set up two-factor authentication on your profile.`;
  const warning = `If you did not ask for this, reset your password now and tell the ${portalName}'s support.`;
  const text = [
    portalName,
    '',
    intro,
    '',
    next,
    `Sign in: ${signInLink}`,
    '',
    warning,
    `Reset your password: ${passwordResetLink}`,
  ].join('\n');
  const html = `<!doctype html>
<html lang="en"><body style="font-family:Arial,sans-serif;color:#1a1b1e;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:20px">${escapeHtml(portalName)}</h1>
<p>${escapeHtml(intro)}</p>
<p>${escapeHtml(next)}</p>
<p><a href="${escapeHtml(signInLink)}" style="display:inline-block;background:#1864ab;color:#fff;padding:10px 18px;border-radius:4px;text-decoration:none">Sign in</a></p>
<p><strong>${escapeHtml(warning)}</strong> <a href="${escapeHtml(passwordResetLink)}">Reset your password</a></p>
</body></html>`;
  const subject = hadSecondFactor
    ? `Two-factor authentication was removed from your ${portalName} account`
    : `Your ${portalName} account was signed out everywhere`;
  return { to: input.to, subject, text, html };
}
