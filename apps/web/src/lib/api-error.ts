import { messages, type MessageKey } from '@portal/contracts';
import type { TranslationKey } from './i18n';
import { canToast } from './toasts';

/*
 * A failed call and what the pages show for it, in one place: the portal's own wording for terse
 * server texts, and which failures show the server's text, a generic message or nothing.
 */

export interface FieldError {
  field: string;
  message: string;
}

/** A failed call: status 0 and code NETWORK_ERROR when no answer came back at all. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field: string | undefined;
  readonly fields: FieldError[];
  /** The portal API refused the session: the user has to sign in again (§8). */
  readonly sessionExpired: boolean;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    field?: string;
    fields?: FieldError[];
    path: string;
  }) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.field = init.field;
    this.fields = init.fields ?? [];
    this.sessionExpired =
      init.path.startsWith('/api/v1/') &&
      (init.status === 401 || init.message === messages['errors.unauthorized']);
  }
}

export const NETWORK_ERROR = 'NETWORK_ERROR';

export function isNetworkError(error: unknown): error is ApiError {
  return error instanceof ApiError && error.code === NETWORK_ERROR;
}

/** An error the browser itself raises, whose message is a message key (a wait that ran out, say). */
export class PortalError extends Error {}

/**
 * Errors shown in the portal's own wording rather than the server's text: identity errors whose
 * text is terse ("Invalid OTP"), and a card of a brand the portal does not take, whose message says
 * which brands it does (§8).
 */
export const CODE_WORDING: Readonly<Record<string, TranslationKey>> = {
  INVALID_OTP: 'auth.error.codeInvalid',
  OTP_EXPIRED: 'auth.error.codeExpired',
  TOO_MANY_ATTEMPTS: 'auth.error.codeAttemptsExceeded',
  INVALID_EMAIL_OR_PASSWORD: 'loginWithEmail.error.incorrectCredentials',
  // better-auth's two-factor answers (beyond the spec).
  INVALID_CODE: 'auth.error.twoFactorCodeInvalid',
  INVALID_BACKUP_CODE: 'auth.error.backupCodeInvalid',
  INVALID_TWO_FACTOR_COOKIE: 'auth.error.twoFactorExpired',
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: 'auth.error.twoFactorExpired',
  ACCOUNT_TEMPORARILY_LOCKED: 'auth.error.twoFactorLocked',
  TOTP_ALREADY_ENABLED: 'auth.error.twoFactorAlreadyOn',
  CARD_NOT_SUPPORTED: 'payment.card.notSupported',
};

export interface ErrorTextOptions {
  /** Shown for a failure without wording of its own. */
  fallback?: MessageKey;
  /** When given, only refusals with these codes show the server's text; others show the fallback. */
  serverWordedCodes?: readonly string[];
}

/** What a failure shows, as a message key or the server's own text (translate() takes either). */
export function errorText(
  error: unknown,
  { fallback = 'common.somethingWrong', serverWordedCodes }: ErrorTextOptions = {},
): string {
  if (isNetworkError(error)) return error.message;
  if (error instanceof ApiError)
    return !serverWordedCodes || serverWordedCodes.includes(error.code) ? error.message : fallback;
  if (error instanceof PortalError) return error.message;
  return fallback;
}

/** A network failure on a page with a toast container: the toast reported it, the form shows nothing. */
export function isToastedNetworkFailure(error: unknown): boolean {
  return isNetworkError(error) && canToast();
}
