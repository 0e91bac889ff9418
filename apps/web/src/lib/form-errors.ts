import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { ApiError, isNetworkError } from './api-client';
import { translate } from './i18n';

/** Puts the server's per-field messages on the form fields it names; true when any matched. */
export function applyFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly FieldPath<T>[],
): boolean {
  if (!(error instanceof ApiError)) return false;
  const reported = error.field ? [...error.fields, { field: error.field, message: error.message }] : error.fields;
  const known = reported.filter(({ field }) => (fields as readonly string[]).includes(field));
  known.forEach(({ field, message }) => setError(field as FieldPath<T>, { message }));
  return known.length > 0;
}

/** The message (key or server text) to show beside a form; null for network failures, which are toasted. */
export function submitErrorText(error: unknown): string | null {
  if (!error || isNetworkError(error)) return null;
  return error instanceof Error ? error.message : 'common.somethingWrong';
}

/** The text of a field's validation message (zod messages are message keys). */
export function fieldError(error: { message?: string } | undefined): string | undefined {
  return error?.message ? translate(error.message) : undefined;
}
