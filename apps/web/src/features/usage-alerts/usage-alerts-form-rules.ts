import {
  isValidEmail,
  MAX_USAGE_ALERT_RECIPIENTS,
  MAX_USAGE_ALERTS,
  MONEY_USAGE_ALERT_KINDS,
  splitEmailList,
  USAGE_ALERT_KINDS,
  USAGE_ALERT_KINDS_BY_CONTRACT,
  USAGE_ALERT_MAX_VALUE,
  type ContractType,
  type UsageAlertKind,
  type UsageAlertSettings,
  type UsageAlertSettingsResponse,
} from '@portal/contracts';
import { z } from 'zod';
import { ApiError } from '../../lib/api-error';
import type { TranslationKey } from '../../lib/i18n';

/*
 * The super-admin's form of usage alerts: the values as typed, the checks with the page's wording,
 * the settings it sends, and where the server's refusals are shown.
 */

/** The kinds a contract may set, in the order the form offers them. */
export function alertKindsFor(contractType: ContractType): readonly UsageAlertKind[] {
  return USAGE_ALERT_KINDS_BY_CONTRACT[contractType];
}

export const isMoneyKind = (kind: UsageAlertKind) => MONEY_USAGE_ALERT_KINDS.includes(kind);

/** One row of the form: the kind and the value as typed (a count, a percentage or USD). */
export interface AlertRow {
  kind: UsageAlertKind;
  value: string;
}

export interface UsageAlertsFormValues {
  alerts: AlertRow[];
  recipients: string[];
}

/** USD cents as typed in the form: 400.00 */
function centsInput(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

export function formValuesOf(settings: UsageAlertSettingsResponse): UsageAlertsFormValues {
  return {
    alerts: settings.alerts.map(({ kind, value }) => ({
      kind,
      value: isMoneyKind(kind) ? centsInput(value) : String(value),
    })),
    recipients: [...settings.recipients],
  };
}

/** Digits, optionally grouped by commas: 50000 or 50,000. */
const WHOLE = String.raw`(?:\d+|\d{1,3}(?:,\d{3})+)`;
const COUNT = new RegExp(`^${WHOLE}$`);
const AMOUNT = new RegExp(`^(${WHOLE})(?:\\.(\\d{1,2}))?$`);

/**
 * The value a row stands for, in the kind's unit (MAU, percent, USD cents), or null when the text
 * is not one. Amounts are read digit by digit, so 0.29 is 29 cents and not 28.999….
 */
export function alertValueOf(kind: UsageAlertKind, typed: string): number | null {
  const text = typed.trim();
  if (isMoneyKind(kind)) {
    const match = AMOUNT.exec(text);
    if (!match) return null;
    const [, whole = '', fraction = ''] = match;
    return Number(whole.replaceAll(',', '')) * 100 + Number(fraction.padEnd(2, '0'));
  }
  return COUNT.test(text) ? Number(text.replaceAll(',', '')) : null;
}

/** Addresses after a change: pasted lists split, each trimmed and lower-cased, duplicates dropped. */
export function recipientTagsFrom(tags: readonly string[]): string[] {
  return splitEmailList(tags.join('\n')).slice(0, MAX_USAGE_ALERT_RECIPIENTS);
}

/**
 * The form's checks, with the page's wording, and the settings it sends. The contract's schema
 * checks the same on the server; here each refusal is put under its row.
 */
export function usageAlertsFormSchema(contractType: ContractType) {
  const allowed = alertKindsFor(contractType);
  return z
    .object({
      alerts: z.array(z.object({ kind: z.enum(USAGE_ALERT_KINDS), value: z.string() })).max(MAX_USAGE_ALERTS),
      recipients: z.array(z.string()).max(MAX_USAGE_ALERT_RECIPIENTS),
    })
    .superRefine(({ alerts, recipients }, ctx) => {
      const seen = new Set<string>();
      alerts.forEach(({ kind, value }, index) => {
        const issue = (field: keyof AlertRow, message: TranslationKey) =>
          ctx.addIssue({ code: 'custom', path: ['alerts', index, field], message });
        if (!allowed.includes(kind)) issue('kind', 'usageAlerts.error.notForContract');
        if (!value.trim()) return issue('value', 'usageAlerts.error.required');
        const parsed = alertValueOf(kind, value);
        if (parsed === null || parsed < 1) {
          return issue(
            'value',
            isMoneyKind(kind) ? 'usageAlerts.error.amount' : 'usageAlerts.error.wholeNumber',
          );
        }
        if (parsed > USAGE_ALERT_MAX_VALUE[kind]) return issue('value', 'usageAlerts.error.tooLarge');
        const key = `${kind}:${parsed}`;
        if (seen.has(key)) issue('value', 'usageAlerts.error.twice');
        seen.add(key);
      });
      if (recipients.some((email) => !isValidEmail(email))) {
        ctx.addIssue({ code: 'custom', path: ['recipients'], message: 'usageAlerts.error.email' });
      }
    })
    .transform(({ alerts, recipients }): UsageAlertSettings => ({
      // Checked above: every value reads as a number.
      alerts: alerts.map(({ kind, value }) => ({ kind, value: alertValueOf(kind, value) ?? 0 })),
      recipients,
    }));
}

/** A form field a refusal is shown under: a row's kind or value, or the recipients. */
export type UsageAlertsFormField = `alerts.${number}.kind` | `alerts.${number}.value` | 'recipients';

/** The form's field for a field the server names (`alerts.2.value`, `alerts.2`, `recipients.0`). */
function formFieldOf(serverField: string): UsageAlertsFormField | null {
  const row = /^alerts\.(\d+)(?:\.(kind|value))?$/.exec(serverField);
  if (row) return `alerts.${Number(row[1])}.${row[2] === 'kind' ? 'kind' : 'value'}`;
  return /^recipients(?:\.\d+)?$/.test(serverField) ? 'recipients' : null;
}

/**
 * Where a refused save shows its messages: under the fields the server names. A validation
 * failure names its first field in `field` too, with the message prefixed by it.
 */
export function usageAlertsFieldErrors(error: unknown): { field: UsageAlertsFormField; message: string }[] {
  if (!(error instanceof ApiError)) return [];
  const named =
    error.field && !error.fields.some(({ field }) => field === error.field)
      ? [...error.fields, { field: error.field, message: error.message.replace(`${error.field}: `, '') }]
      : error.fields;
  return named.flatMap(({ field, message }) => {
    const formField = formFieldOf(field);
    return formField ? [{ field: formField, message }] : [];
  });
}
