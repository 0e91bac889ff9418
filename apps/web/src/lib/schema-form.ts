import { useMemo, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import type { z } from 'zod';
import { translate } from './i18n';

type FormValues = Record<string, string>;

/** The first message of each field the schema refuses (zod messages are message keys). */
function firstIssuePerField(issues: readonly z.core.$ZodIssue[]): Record<string, string> {
  const messages: Record<string, string> = {};
  for (const { path, message } of issues) {
    const field = String(path[0] ?? '');
    messages[field] ??= message;
  }
  return messages;
}

export interface SchemaFormOptions<V extends FormValues, Output> {
  defaultValues: V;
  /**
   * The contract's schema for the form. It is loaded with zod when a field is first focused, so
   * the page shows without the validation library and loads it while the user types; a submit
   * before it arrived waits for it.
   */
  loadSchema: () => Promise<z.ZodType<Output, V>>;
  /**
   * 'submit' (default): messages appear after the first submit, then follow every change.
   * 'touched': a field's message appears once it was left; `isValid` follows every key.
   */
  mode?: 'submit' | 'touched';
}

/**
 * A form of text fields checked by a contract schema, for the public pages (which must load
 * little): values, messages, dirty and valid state, and server messages put on a field until it
 * changes.
 */
export function useSchemaForm<V extends FormValues, Output>({
  defaultValues,
  loadSchema,
  mode = 'submit',
}: SchemaFormOptions<V, Output>) {
  const [values, setValues] = useState(defaultValues);
  const [schema, setSchema] = useState<z.ZodType<Output, V> | null>(null);
  const [touched, setTouched] = useState<ReadonlySet<keyof V>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Partial<Record<keyof V, string>>>({});

  const schemaRequested = useRef(false);
  const requestSchema = () => {
    if (schemaRequested.current) return;
    schemaRequested.current = true;
    loadSchema().then(
      (loaded) => setSchema(() => loaded),
      // A failed load is asked for again at the next focus or submit.
      () => {
        schemaRequested.current = false;
      },
    );
  };

  const result = useMemo(() => schema?.safeParse(values), [schema, values]);
  const issues = useMemo(
    () => (result && !result.success ? firstIssuePerField(result.error.issues) : {}),
    [result],
  );

  /** The text of the field's message, if it has one to show now. */
  const errorOf = (field: keyof V): string | undefined => {
    const shown = submitted || (mode === 'touched' && touched.has(field));
    const message = serverErrors[field] ?? (shown ? issues[field as string] : undefined);
    return message && translate(message);
  };

  const setValue = (field: keyof V, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setServerErrors((current) => (field in current ? { ...current, [field]: undefined } : current));
  };

  /** The props of a field's input: name, value, change, blur, and what was typed before the take-over. */
  const field = (name: keyof V & string) => ({
    name,
    value: values[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => setValue(name, event.currentTarget.value),
    // Typed into the server-rendered page before its script ran: the field was focused then.
    onTypedBeforeTakeOver: (typed: string) => {
      setValue(name, typed);
      requestSchema();
    },
    onFocus: requestSchema,
    onBlur: () => setTouched((current) => (current.has(name) ? current : new Set(current).add(name))),
  });

  /** Checks the values with the schema and calls `onValid` with its output (trimmed, typed). */
  const handleSubmit = (onValid: (output: Output) => void) => async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const check = schema ?? (await loadSchema());
    if (!schema) setSchema(() => check);
    const checked = check.safeParse(values);
    if (checked.success) onValid(checked.data);
  };

  return {
    values,
    field,
    setValue,
    errorOf,
    setError: (name: keyof V, { message }: { message: string }) =>
      setServerErrors((current) => ({ ...current, [name]: message })),
    handleSubmit,
    isDirty: Object.keys(defaultValues).some((name) => values[name] !== defaultValues[name]),
    isValid: result?.success === true,
  };
}
