import { describe, expect, it } from 'vitest';
import { backupCodesText, groupedKey, setupKeyOf } from './enrolment';

describe('two-factor enrolment', () => {
  it('reads the key from the otpauth URI the server gives', () => {
    const uri =
      'otpauth://totp/Social-Developer-Portal:ann%40acme.io?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Social-Developer-Portal&digits=6&period=30';
    expect(setupKeyOf(uri)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(setupKeyOf('otpauth://totp/x')).toBe('');
    expect(setupKeyOf('not a uri')).toBe('');
  });

  it('shows the key in groups of four', () => {
    expect(groupedKey('GEZDGNBVGY3TQOJQGEZ')).toBe('GEZD GNBV GY3T QOJQ GEZ');
    expect(groupedKey('')).toBe('');
  });

  it('writes the backup codes one per line, after saying what they are', () => {
    const text = backupCodesText(['AbCdE-12345', 'FgHiJ-67890'], 'ann@acme.io', 'Developer Portal');
    expect(text.split('\n')).toEqual([
      'Developer Portal: two-factor authentication backup codes for ann@acme.io',
      'Each code signs you in once if you cannot use your authenticator app. Keep them somewhere safe.',
      '',
      'AbCdE-12345',
      'FgHiJ-67890',
      '',
    ]);
  });
});
