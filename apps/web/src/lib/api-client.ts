import { messages, type ApiErrorBody, type MessageKey } from '@portal/contracts';
import { isRecord } from './is-record';

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

interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Identity errors whose server text is terse ("Invalid OTP") are shown in the portal's own wording. */
const IDENTITY_ERROR_MESSAGES: Readonly<Record<string, MessageKey>> = {
  INVALID_OTP: 'auth.error.codeInvalid',
  OTP_EXPIRED: 'auth.error.codeExpired',
  TOO_MANY_ATTEMPTS: 'auth.error.codeAttemptsExceeded',
  INVALID_EMAIL_OR_PASSWORD: 'loginWithEmail.error.incorrectCredentials',
};

const textOf = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** The `{code, message, field, fields}` of an error answer (ApiErrorSchema), whatever else it holds. */
function errorFields(body: unknown): Partial<ApiErrorBody> {
  if (!isRecord(body)) return {};
  const fields = Array.isArray(body.fields)
    ? body.fields.flatMap((entry) =>
        isRecord(entry) && typeof entry.field === 'string' && typeof entry.message === 'string'
          ? [{ field: entry.field, message: entry.message }]
          : [],
      )
    : undefined;
  return { code: textOf(body.code), message: textOf(body.message), field: textOf(body.field), fields };
}

function errorFrom(path: string, status: number, body: unknown): ApiError {
  const fields = errorFields(body);
  const fallback: MessageKey = 'common.somethingWrong';
  const mapped = fields.code ? IDENTITY_ERROR_MESSAGES[fields.code] : undefined;
  const message =
    mapped ?? fields.message ?? (typeof body === 'string' && body.trim() ? body.trim() : fallback);
  return new ApiError({ ...fields, status, code: fields.code ?? `HTTP_${status}`, message, path });
}

/**
 * Calls the portal on the same origin with its session cookie. Message keys stand in the
 * error message for failures the client itself detects; the server's own text otherwise.
 * `T` is the answer's contract type: the server checks its answers against the same schemas
 * (packages/contracts), so the page does not parse them again (decision 012).
 */
export async function apiRequest<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, signal } = options;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      signal,
      credentials: 'same-origin',
      headers:
        body === undefined
          ? { Accept: 'application/json' }
          : { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    const message: MessageKey = navigator.onLine ? 'common.networkError' : 'common.offline';
    throw new ApiError({ status: 0, code: NETWORK_ERROR, message, path });
  }
  const payload = await readBody(response);
  if (!response.ok) throw errorFrom(path, response.status, payload);
  return payload as T;
}
