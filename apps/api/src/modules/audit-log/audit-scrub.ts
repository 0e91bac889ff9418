import { passesLuhn, type AuditChanges, type AuditValue } from '@portal/contracts';

/**
 * What an audit entry may never hold (decision 042): passwords, secrets, tokens, one-time and
 * invitation codes, keys, card numbers and security codes. A field whose name says it is one keeps
 * its name (the entry shows that it changed) with its values replaced; any other string that reads
 * as a card number is replaced too, whatever its field.
 */
const SECRET_FIELD = /pass(word|phrase)?|secret|token|code|otp|api.?key|private.?key|cvc|cvv|card.?number|^pan$/i;
/** Codes that name a place or a currency, not a secret. */
const PUBLIC_CODE_FIELD = /^(billing)?(country|zip|postal|currency|state|region)_?code$/i;

function isSecretField(field: string): boolean {
  return SECRET_FIELD.test(field) && !PUBLIC_CODE_FIELD.test(field);
}

export const REDACTED = '[redacted]';

const STRING_MAX = 500;
const LIST_MAX = 100;

/** Digits (13 to 19, spaces or dashes between) that pass the Luhn check: a payment card number. */
const CARD_NUMBER_CANDIDATE = /\d(?:[ -]?\d){12,18}/g;

function scrubString(value: string): string {
  const withoutCards = value.replace(CARD_NUMBER_CANDIDATE, (candidate) =>
    passesLuhn(candidate.replace(/\D/g, '')) ? REDACTED : candidate,
  );
  return withoutCards.length > STRING_MAX ? `${withoutCards.slice(0, STRING_MAX)}…` : withoutCards;
}

/** A value as the log may keep it: strings cut to size with card numbers replaced, lists cut to size. */
export function scrubValue(value: AuditValue): AuditValue {
  if (typeof value === 'string') return scrubString(value);
  if (Array.isArray(value)) return value.slice(0, LIST_MAX).map(scrubString);
  return value;
}

function redactedOrScrubbed(secretField: boolean, value: AuditValue | undefined): AuditValue | undefined {
  if (value === undefined) return undefined;
  return secretField ? REDACTED : scrubValue(value);
}

/** The changes as the log stores them: secret fields' values replaced, every other value scrubbed. */
export function scrubChanges(changes: AuditChanges): AuditChanges {
  const scrubbed: AuditChanges = {};
  for (const [field, { before, after }] of Object.entries(changes)) {
    const secretField = isSecretField(field);
    scrubbed[field] = {
      ...(before === undefined ? {} : { before: redactedOrScrubbed(secretField, before) }),
      ...(after === undefined ? {} : { after: redactedOrScrubbed(secretField, after) }),
    };
  }
  return scrubbed;
}
