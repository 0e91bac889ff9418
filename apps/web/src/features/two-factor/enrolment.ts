/*
 * What two-factor enrolment shows: the key to type when the QR code cannot be scanned, and the
 * backup codes to keep.
 */

/** The base32 key inside an otpauth:// URI (its `secret` parameter); empty when there is none. */
export function setupKeyOf(totpURI: string): string {
  try {
    return new URL(totpURI).searchParams.get('secret') ?? '';
  } catch {
    return '';
  }
}

/** The key in groups of four, as people copy it into an app by hand. */
export function groupedKey(key: string): string {
  return key.match(/.{1,4}/g)?.join(' ') ?? '';
}

/** The backup codes as a text file to download: what they are, for which account, one per line. */
export function backupCodesText(codes: readonly string[], account: string, portal: string): string {
  return [
    `${portal}: two-factor authentication backup codes for ${account}`,
    'Each code signs you in once if you cannot use your authenticator app. Keep them somewhere safe.',
    '',
    ...codes,
    '',
  ].join('\n');
}
