import crypto from 'node:crypto';

/*
 * The codes an authenticator app shows (RFC 6238: HMAC-SHA1 over the number of 30-second steps,
 * dynamically truncated to 6 digits), from the base32 key the portal gives at enrolment.
 */

function base32Decode(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of text.replace(/[\s=]+/g, '').toUpperCase()) {
    const value = alphabet.indexOf(char);
    if (value < 0) throw new Error(`not base32: ${char}`);
    bits += value.toString(2).padStart(5, '0');
  }
  const bytes: number[] = [];
  for (let index = 0; index + 8 <= bits.length; index += 8)
    bytes.push(parseInt(bits.slice(index, index + 8), 2));
  return Buffer.from(bytes);
}

/** The code an authenticator app shows for the base32 key at a moment. */
export function totp(key: string, at = Date.now()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / 30)));
  const mac = crypto.createHmac('sha1', base32Decode(key)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const number = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(number % 1_000_000).padStart(6, '0');
}

const STEP_MS = 30 * 1000;
/** Time a code must stay valid after it is handed out (a browser test types and submits it). */
const MARGIN_MS = 10 * 1000;
const stepsGiven = new Map<string, Set<number>>();

/**
 * A code the portal will accept and has not been given for this key before: the portal takes each
 * code once, but accepts the previous, current and next step, so up to three are at hand at once.
 * The current and next steps come first; the previous one only while it stays valid for a while
 * (it expires with the current step). When all three were given, waits for the next step.
 */
export async function freshTotp(key: string): Promise<string> {
  const given = stepsGiven.get(key) ?? new Set<number>();
  stepsGiven.set(key, given);
  for (;;) {
    const now = Date.now();
    const step = Math.floor(now / STEP_MS);
    const candidates = [step, step + 1];
    if ((step + 1) * STEP_MS - now > MARGIN_MS) candidates.push(step - 1);
    const free = candidates.find((candidate) => !given.has(candidate));
    if (free !== undefined) {
      given.add(free);
      return totp(key, free * STEP_MS);
    }
    await new Promise((resolve) => setTimeout(resolve, (step + 1) * STEP_MS - now + 10));
  }
}

/** A code of a 30-second step ten minutes ago: never accepted. */
export const staleTotp = (key: string) => totp(key, Date.now() - 10 * 60 * 1000);

/** The base32 key of an otpauth:// URI. */
export function keyOf(totpURI: string): string {
  const key = new URL(totpURI).searchParams.get('secret');
  if (!key) throw new Error(`no secret in ${totpURI}`);
  return key;
}
