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

/** A code of a 30-second step ten minutes ago: never accepted. */
export const staleTotp = (key: string) => totp(key, Date.now() - 10 * 60 * 1000);

/** The base32 key of an otpauth:// URI. */
export function keyOf(totpURI: string): string {
  const key = new URL(totpURI).searchParams.get('secret');
  if (!key) throw new Error(`no secret in ${totpURI}`);
  return key;
}
