import { describe, expect, it } from 'vitest';
import { sanitizeSsoDomain } from './sso-domain';

describe('sanitizeSsoDomain', () => {
  it('keeps letters, digits and dashes only, as typed or pasted', () => {
    expect(sanitizeSsoDomain('acme-corp')).toBe('acme-corp');
    expect(sanitizeSsoDomain('Acme Corp_2!')).toBe('AcmeCorp2');
    expect(sanitizeSsoDomain('https://acme.example.com/')).toBe('httpsacmeexamplecom');
    expect(sanitizeSsoDomain('acmé')).toBe('acm');
  });

  it('cuts a longer value at 32 characters', () => {
    expect(sanitizeSsoDomain('a'.repeat(40))).toBe('a'.repeat(32));
    expect(sanitizeSsoDomain(`${'b'.repeat(31)}!!c-d`)).toBe(`${'b'.repeat(31)}c`);
  });
});
