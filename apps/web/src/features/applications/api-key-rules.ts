import { MAX_WORKING_API_KEYS, type ApiKey, type ApiKeyOverlap, type ApiKeyStatus } from '@portal/contracts';
import { formatDate, formatTime } from '../../lib/dates';
import type { TranslationKey, TranslationValues } from '../../lib/i18n';

/** A key's status as the list shows it: a message key and what it names. */
export interface ApiKeyStatusText {
  key: TranslationKey;
  values?: TranslationValues;
}

const STATUS_KEYS = {
  active: 'apiKeys.status.active',
  expiring: 'apiKeys.status.expiring',
  expired: 'apiKeys.status.expired',
  revoked: 'apiKeys.status.revoked',
} as const satisfies Record<ApiKeyStatus, TranslationKey>;

/** A date and time in the browser's time zone, as the portal writes them: 05 Jan 2026 09:07. */
export const dateAndTime = (at: string) => `${formatDate(at)} ${formatTime(at)}`;

/** "Active", "Stops <when>" for a key in a rotation's overlap, "Stopped" once past it, "Revoked". */
export function apiKeyStatusText(key: Pick<ApiKey, 'status' | 'expiresAt'>): ApiKeyStatusText {
  if (key.status === 'expiring' && key.expiresAt)
    return { key: STATUS_KEYS.expiring, values: { when: dateAndTime(key.expiresAt) } };
  return { key: STATUS_KEYS[key.status] };
}

/** Keys the region still accepts: active ones and those in a rotation's overlap. */
export function isWorking(key: Pick<ApiKey, 'status'>): boolean {
  return key.status === 'active' || key.status === 'expiring';
}

export function workingKeyCount(keys: readonly Pick<ApiKey, 'status'>[]): number {
  return keys.filter(isWorking).length;
}

/** A network holds at most MAX_WORKING_API_KEYS working keys, so a new one needs room below that. */
export function canCreateApiKey(keys: readonly Pick<ApiKey, 'status'>[]): boolean {
  return workingKeyCount(keys) < MAX_WORKING_API_KEYS;
}

/** The name a new key is offered: "Key <n>", the first n no key of the list is called. */
export function defaultKeyName(keys: readonly Pick<ApiKey, 'name'>[]): string {
  const taken = new Set(keys.map((key) => key.name));
  let n = keys.length + 1;
  while (taken.has(`Key ${n}`)) n += 1;
  return `Key ${n}`;
}

/** The prefix the region keeps of a key, marked as the start of a longer key: rk_abcd1234… */
export const shownPrefix = (prefix: string) => `${prefix}…`;

export const OVERLAP_LABELS = {
  now: 'apiKeys.rotate.overlap.now',
  '1h': 'apiKeys.rotate.overlap.1h',
  '24h': 'apiKeys.rotate.overlap.24h',
  '7d': 'apiKeys.rotate.overlap.7d',
} as const satisfies Record<ApiKeyOverlap, TranslationKey>;
