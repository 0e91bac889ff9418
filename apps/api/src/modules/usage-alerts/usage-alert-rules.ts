import {
  DEFAULT_LICENSE_ALERT_PERCENTS,
  USAGE_ALERT_KINDS_BY_CONTRACT,
  type ContractType,
  type UsageAlert,
  type UsageAlertKind,
} from '@portal/contracts';
import { formatUsd } from '../billing/billing-rules.ts';

/** What an organisation's alerts are compared with, read at one moment of the month. */
export interface UsageFigures {
  contractType: ContractType;
  accountActive: boolean;
  /** The flat-rate licence's MAU; 0 for PAYG. */
  licenseMau: number;
  /** Monthly active users of the month so far, over all applications. */
  mau: number;
  /** The month's PAYG charge at the MAU so far, by the bill's own rule. */
  projectedChargeCents: number;
  balanceCents: number;
}

/** Whether a contract has a figure for an alert of this kind. */
export function kindAppliesTo(kind: UsageAlertKind, contractType: ContractType): boolean {
  return (USAGE_ALERT_KINDS_BY_CONTRACT[contractType] as readonly UsageAlertKind[]).includes(kind);
}

/**
 * The alerts in force: those saved that the contract has a figure for (a contract changed since keeps
 * the others, unused), or, never saved, the contract's defaults.
 */
export function alertsInForce(
  saved: readonly UsageAlert[] | undefined,
  contractType: ContractType,
): UsageAlert[] {
  if (saved) return saved.filter((alert) => kindAppliesTo(alert.kind, contractType));
  return contractType === 'flat_rate'
    ? DEFAULT_LICENSE_ALERT_PERCENTS.map((value) => ({ kind: 'mau_percent', value }))
    : [];
}

/** The figure an alert of this kind watches: MAU, or USD cents. */
export function figureOf(kind: UsageAlertKind, figures: UsageFigures): number {
  switch (kind) {
    case 'mau':
    case 'mau_percent':
      return figures.mau;
    case 'projected_charge':
      return figures.projectedChargeCents;
    case 'low_balance':
      return figures.balanceCents;
  }
}

/** Whether the figures have crossed the alert: reached it, or for a balance fallen below it. */
export function isCrossed(alert: UsageAlert, figures: UsageFigures): boolean {
  if (!kindAppliesTo(alert.kind, figures.contractType)) return false;
  switch (alert.kind) {
    case 'mau':
      return figures.mau >= alert.value;
    case 'mau_percent':
      // Compared in integers: 8 of 10 is 80 % exactly, not 79.99….
      return figures.licenseMau > 0 && figures.mau * 100 >= alert.value * figures.licenseMau;
    case 'projected_charge':
      return figures.projectedChargeCents >= alert.value;
    case 'low_balance':
      // An inactive account has been told so already, by its own notice.
      return figures.accountActive && figures.balanceCents < alert.value;
  }
}

/** A threshold crossed, as noticed. */
export interface CrossedThreshold {
  kind: UsageAlertKind;
  threshold: number;
  figure: number;
  licenseMau: number;
}

const count = new Intl.NumberFormat('en-US');

/** The share of the licence used, in whole percent, rounded down (as the banner says it). */
export function licencePercentUsed(mau: number, licenseMau: number): number {
  return licenseMau > 0 ? Math.floor((mau * 100) / licenseMau) : 0;
}

/** The notice in words, for its mail: a headline for the subject and a sentence with both figures. */
export function describeCrossing(notice: CrossedThreshold, organizationName: string, month: string) {
  const { kind, threshold, figure, licenseMau } = notice;
  switch (kind) {
    case 'mau_percent': {
      const percent = licencePercentUsed(figure, licenseMau);
      return {
        headline: `${percent} % of the licence used`,
        summary: `${organizationName} has ${count.format(figure)} monthly active users in ${month}: ${percent} % of its ${count.format(licenseMau)}-MAU licence, at or over the alert of ${threshold} %.`,
      };
    }
    case 'mau':
      return {
        headline: `${count.format(figure)} monthly active users`,
        summary: `${organizationName} has ${count.format(figure)} monthly active users in ${month}, at or over the alert of ${count.format(threshold)}.`,
      };
    case 'projected_charge':
      return {
        headline: `projected charge USD ${formatUsd(figure)}`,
        summary: `The charge of ${organizationName} for ${month} comes to USD ${formatUsd(figure)} so far, at or over the alert of USD ${formatUsd(threshold)}.`,
      };
    case 'low_balance':
      return {
        headline: `balance below USD ${formatUsd(threshold)}`,
        summary: `The prepaid balance of ${organizationName} is USD ${formatUsd(figure)}, below the alert of USD ${formatUsd(threshold)}. An account whose balance cannot pay its charge becomes inactive.`,
      };
  }
}
