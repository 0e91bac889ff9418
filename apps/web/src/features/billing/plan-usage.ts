import {
  CORE_PLAN_LABEL_FROM,
  CONTRACT_TYPES,
  type Application,
  type ContractRecord,
  type ContractType,
  type UsageRecord,
} from '@portal/contracts';

/** A count of monthly active users as the subscription page shows it: 1,200 */
export function formatMau(value: number): string {
  return value.toLocaleString('en-US');
}

/** What the subscription page shows: one view per contract type, or an error for a type it does not know. */
export type SubscriptionView =
  | { kind: 'payg' }
  | { kind: 'flat_rate'; license: number; supportPlan: string }
  | { kind: 'unknown'; type: string | null };

const knownContractTypes: ReadonlySet<string> = new Set(CONTRACT_TYPES);
const isContractType = (type: string): type is ContractType => knownContractTypes.has(type);

export function subscriptionView(contracts: readonly ContractRecord[]): SubscriptionView {
  const contract = contracts[0];
  if (!contract || !isContractType(contract.type)) return { kind: 'unknown', type: contract?.type ?? null };
  if (contract.type === 'payg') return { kind: 'payg' };
  return { kind: 'flat_rate', license: contract.license, supportPlan: contract.supportPlan };
}

/** The month's monthly active users and when they were last imported; none before the first import. */
export function monthlyActiveUsers(usages: readonly UsageRecord[]): Pick<UsageRecord, 'usage' | 'updatedAt'> {
  const mau = usages.find((record) => record.type === 'mau');
  return { usage: mau?.usage ?? 0, updatedAt: mau?.updatedAt ?? null };
}

/** Usage against the licence in percent (§9: usage divided by licence); any usage of no licence is over it. */
export function licenseUsagePercent(usage: number, license: number): number {
  if (license <= 0) return usage > 0 ? 100 : 0;
  return (usage / license) * 100;
}

/** At 100 % or more of the licence the bar turns red (§9). */
export function isOverLicense(percent: number): boolean {
  return percent >= 100;
}

/**
 * The plan an application shows on the subscription page: '{product} Core' for apps created after
 * 2024-08-30 (§2 reads "after" here, where the application list reads "on or after"), its plan otherwise.
 */
export function subscriptionPlanLabel(
  app: Pick<Application, 'createdAt'>,
  productName: string,
  planName: string,
): string {
  const createdOn = new Date(app.createdAt).toISOString().slice(0, 10);
  return createdOn > CORE_PLAN_LABEL_FROM ? `${productName} Core` : planName;
}
