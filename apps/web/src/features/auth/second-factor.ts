import { ApiError, errorText } from '../../lib/api-error';

/** Where the second step of sign-in shows a failure: under the code, or above the form. */
export interface SecondFactorFailure {
  on: 'code' | 'form';
  /** A message key or the server's own text. */
  message: string;
}

/** Codes of a mistyped or used code: the user corrects it in the field. */
const WRONG_CODE = new Set(['INVALID_CODE', 'INVALID_BACKUP_CODE']);

/**
 * A wrong code is said under the field and can be typed again; anything else (the sign-in ran out or
 * had too many wrong codes, the account's second factor is paused, too many attempts from here, no
 * connection) is said above the form, in the wording lib/api-error.ts gives it.
 */
export function secondFactorFailure(error: unknown): SecondFactorFailure {
  if (error instanceof ApiError && WRONG_CODE.has(error.code)) return { on: 'code', message: error.message };
  return { on: 'form', message: errorText(error) };
}
