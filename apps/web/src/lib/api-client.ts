import type { ApiErrorBody, MessageKey } from '@portal/contracts';
import { ApiError, CODE_WORDING, NETWORK_ERROR } from './api-error';
import { isRecord } from './is-record';

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
  const mapped = fields.code ? CODE_WORDING[fields.code] : undefined;
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
