import { ApiError, errorText, isToastedNetworkFailure } from './api-error';
import { translate } from './i18n';

/**
 * Puts the server's per-field messages on the form fields it names; true when any matched. An item
 * of a list field ('emailDomains.2') is reported on the list's field.
 */
export function applyFieldErrors<F extends string>(
  error: unknown,
  setError: (field: F, error: { message: string }) => void,
  fields: readonly F[],
): boolean {
  if (!(error instanceof ApiError)) return false;
  // A validation failure names its first field in `field` too, with the message prefixed by it.
  const reported =
    error.field && !error.fields.some(({ field }) => field === error.field)
      ? [...error.fields, { field: error.field, message: error.message }]
      : error.fields;
  const isKnown = (field: string): field is F => (fields as readonly string[]).includes(field);
  const known = reported.flatMap(({ field, message }) => {
    const top = field.split('.')[0] ?? field;
    return isKnown(top) ? [{ field: top, message }] : [];
  });
  known.forEach(({ field, message }) => setError(field, { message }));
  return known.length > 0;
}

/** The message (key or server text) to show beside a form; null for network failures where they are toasted. */
export function submitErrorText(error: unknown): string | null {
  return !error || isToastedNetworkFailure(error) ? null : errorText(error);
}

/** The text of a field's validation message (zod messages are message keys). */
export function fieldError(error: { message?: string } | undefined): string | undefined {
  return error?.message ? translate(error.message) : undefined;
}
