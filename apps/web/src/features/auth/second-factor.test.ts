import { describe, expect, it } from 'vitest';
import { ApiError, CODE_WORDING } from '../../lib/api-error';
import { secondFactorFailure } from './second-factor';

const refusal = (status: number, code: string, message = 'server text') =>
  new ApiError({
    status,
    code,
    message: CODE_WORDING[code] ?? message,
    path: '/api/auth/two-factor/verify-totp',
  });

describe('secondFactorFailure', () => {
  it('puts a wrong authenticator or backup code under the field, in the portal’s wording', () => {
    expect(secondFactorFailure(refusal(401, 'INVALID_CODE'))).toEqual({
      on: 'code',
      message: 'auth.error.twoFactorCodeInvalid',
    });
    expect(secondFactorFailure(refusal(401, 'INVALID_BACKUP_CODE'))).toEqual({
      on: 'code',
      message: 'auth.error.backupCodeInvalid',
    });
  });

  it('says above the form that the sign-in must start again, or is paused, or is limited', () => {
    expect(secondFactorFailure(refusal(400, 'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE'))).toEqual({
      on: 'form',
      message: 'auth.error.twoFactorExpired',
    });
    expect(secondFactorFailure(refusal(401, 'INVALID_TWO_FACTOR_COOKIE')).message).toBe(
      'auth.error.twoFactorExpired',
    );
    expect(secondFactorFailure(refusal(429, 'ACCOUNT_TEMPORARILY_LOCKED')).message).toBe(
      'auth.error.twoFactorLocked',
    );
    const limited = refusal(429, 'RATE_LIMITED', 'Too many attempts. Please wait 42 seconds and try again.');
    expect(secondFactorFailure(limited)).toEqual({
      on: 'form',
      message: 'Too many attempts. Please wait 42 seconds and try again.',
    });
    expect(secondFactorFailure(new Error('boom'))).toEqual({ on: 'form', message: 'common.somethingWrong' });
  });
});
