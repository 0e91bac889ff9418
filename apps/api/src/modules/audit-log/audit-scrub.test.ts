import { describe, expect, it } from 'vitest';
import { REDACTED, scrubChanges, scrubValue } from './audit-scrub.ts';

describe('the audit log scrubbing', () => {
  it('keeps a secret field by name and replaces its values', () => {
    const scrubbed = scrubChanges({
      password: { before: 'Old!Passw0rd', after: 'New!Passw0rd' },
      newPassword: { after: 'New!Passw0rd' },
      clientSecret: { before: 'shh', after: 'shh2' },
      accessToken: { after: 'eyJhbGciOi' },
      invitationCode: { after: 'abc' },
      backupCodes: { after: ['AAAAA-AAAAA'] },
      totpOtp: { after: '123456' },
      apiKey: { after: 'key_live_1234' },
      cardNumber: { after: '4242' },
      cvc: { after: '123' },
    });
    for (const [field, change] of Object.entries(scrubbed)) {
      for (const value of [change.before, change.after].filter((v) => v !== undefined))
        expect(value, field).toBe(REDACTED);
    }
    expect(Object.keys(scrubbed)).toHaveLength(10);
  });

  it('keeps fields that only look like codes: a country, a zip code', () => {
    expect(scrubChanges({ billingCountryCode: { before: 'SG', after: 'US' }, zipCode: { after: '048616' } })).toEqual({
      billingCountryCode: { before: 'SG', after: 'US' },
      zipCode: { after: '048616' },
    });
  });

  it('replaces a card number wherever it is, and leaves other numbers', () => {
    expect(scrubValue('paid with 4242 4242 4242 4242 today')).toBe(`paid with ${REDACTED} today`);
    expect(scrubValue('5555-5555-5555-4444')).toBe(REDACTED);
    expect(scrubValue(['4000056655665556', 'app-1'])).toEqual([REDACTED, 'app-1']);
    // Sixteen digits failing the Luhn check are an id, not a card.
    expect(scrubValue('order 1234567812345678')).toBe('order 1234567812345678');
    expect(scrubChanges({ name: { before: 'Shop', after: 'card 4242424242424242' } })).toEqual({
      name: { before: 'Shop', after: `card ${REDACTED}` },
    });
  });

  it('keeps values small: long strings and lists are cut', () => {
    expect((scrubValue('x'.repeat(2000)) as string).length).toBeLessThanOrEqual(501);
    expect(scrubValue(Array.from({ length: 500 }, (_, i) => `app-${i}`))).toHaveLength(100);
    expect(scrubValue(true)).toBe(true);
    expect(scrubValue(null)).toBeNull();
  });
});
