import { z } from 'zod';
import { CONTRACT_TYPES, type ContractType } from './constants.ts';

/**
 * Usage alerts (decision 044): thresholds an organisation's super-admins set on its monthly active
 * users and, for PAYG, on its projected charge and its balance. Each threshold crossed is noticed
 * once a month: mailed to the super-admins and the addresses they add, and shown as a banner.
 *
 * - `mau`: monthly active users, any contract;
 * - `mau_percent`: a percentage of a flat-rate licence's MAU;
 * - `projected_charge`: the month's PAYG charge so far, in USD cents;
 * - `low_balance`: a PAYG balance below this many USD cents.
 */
export const USAGE_ALERT_KINDS = ['mau', 'mau_percent', 'projected_charge', 'low_balance'] as const;
export type UsageAlertKind = (typeof USAGE_ALERT_KINDS)[number];

/** The kinds each contract may set: the others have no figure to compare with. */
export const USAGE_ALERT_KINDS_BY_CONTRACT = {
  payg: ['mau', 'projected_charge', 'low_balance'],
  flat_rate: ['mau', 'mau_percent'],
} as const satisfies Record<ContractType, readonly UsageAlertKind[]>;

/** Kinds whose figures are money: shown only to those who may see billing. */
export const MONEY_USAGE_ALERT_KINDS: readonly UsageAlertKind[] = ['projected_charge', 'low_balance'];

export const MAX_USAGE_ALERTS = 10;
export const MAX_USAGE_ALERT_RECIPIENTS = 10;
/** What a flat-rate organisation that never saved its alerts is alerted at: 80 % and 100 % of its licence. */
export const DEFAULT_LICENSE_ALERT_PERCENTS = [80, 100] as const;

/** The largest value of each kind: beyond any real organisation, within a safe integer. */
export const USAGE_ALERT_MAX_VALUE: Record<UsageAlertKind, number> = {
  mau: 1_000_000_000,
  mau_percent: 1_000,
  projected_charge: 100_000_000_000,
  low_balance: 100_000_000_000,
};

export const UsageAlertSchema = z
  .object({
    kind: z.enum(USAGE_ALERT_KINDS),
    /** MAU, a percentage, or USD cents, by kind. */
    value: z.number().int().min(1),
  })
  .superRefine((alert, ctx) => {
    if (alert.value > USAGE_ALERT_MAX_VALUE[alert.kind]) {
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message: `must be at most ${USAGE_ALERT_MAX_VALUE[alert.kind]}`,
      });
    }
  });
export type UsageAlert = z.infer<typeof UsageAlertSchema>;

const RecipientSchema = z.string().trim().toLowerCase().max(254).pipe(z.email());

/** The whole set, saved in one request. Each kind and value at most once; addresses at most once. */
export const UsageAlertSettingsSchema = z
  .object({
    alerts: z.array(UsageAlertSchema).max(MAX_USAGE_ALERTS),
    /** Addresses told besides the super-admins. */
    recipients: z.array(RecipientSchema).max(MAX_USAGE_ALERT_RECIPIENTS),
  })
  .superRefine((settings, ctx) => {
    const alerts = new Set<string>();
    settings.alerts.forEach((alert, index) => {
      const key = `${alert.kind}:${alert.value}`;
      if (alerts.has(key)) ctx.addIssue({ code: 'custom', path: ['alerts', index], message: 'is set twice' });
      alerts.add(key);
    });
    const recipients = new Set<string>();
    settings.recipients.forEach((recipient, index) => {
      if (recipients.has(recipient)) {
        ctx.addIssue({ code: 'custom', path: ['recipients', index], message: 'is listed twice' });
      }
      recipients.add(recipient);
    });
  });
export type UsageAlertSettings = z.infer<typeof UsageAlertSettingsSchema>;

export const UsageAlertSettingsResponseSchema = z.object({
  alerts: z.array(UsageAlertSchema),
  recipients: z.array(z.string()),
  /** Whether these are the contract's defaults, never saved. */
  defaults: z.boolean(),
  contractType: z.enum(CONTRACT_TYPES),
  /** The flat-rate licence's MAU (0 for PAYG), what `mau_percent` is a percentage of. */
  licenseMau: z.number().int(),
});
export type UsageAlertSettingsResponse = z.infer<typeof UsageAlertSettingsResponseSchema>;

/** A threshold crossed this month, while it is still set. */
export const UsageAlertNoticeSchema = z.object({
  id: z.string(),
  kind: z.enum(USAGE_ALERT_KINDS),
  /** The threshold crossed, in the kind's unit. */
  threshold: z.number().int(),
  /** The figure when it was crossed: MAU, or USD cents. */
  figure: z.number().int(),
  /** The licence's MAU then (for `mau_percent`), otherwise 0. */
  licenseMau: z.number().int(),
  /** `YYYY-MM` */
  cycle: z.string(),
  createdAt: z.iso.datetime(),
});
export type UsageAlertNotice = z.infer<typeof UsageAlertNoticeSchema>;

export const ListUsageAlertNoticesResponseSchema = z.object({ results: z.array(UsageAlertNoticeSchema) });
export type ListUsageAlertNoticesResponse = z.infer<typeof ListUsageAlertNoticesResponseSchema>;
