import {
  AUDIT_ACTION_GROUPS,
  AUDIT_ACTOR_KINDS,
  AUDIT_TARGET_TYPES,
  type AuditActionGroup,
  type AuditActorKind,
  type AuditTargetType,
} from '@portal/contracts';

/**
 * What the audit log page is filtered by, as its address holds it (so a filtered view can be shared
 * and reloaded). The names are the list API's; the dates are days of the browser's calendar.
 */
export interface AuditLogFilters {
  actorKind?: AuditActorKind;
  /** With actorKind 'member' only. */
  actorMemberId?: string;
  actionGroup?: AuditActionGroup;
  targetType?: AuditTargetType;
  /** With targetType only: one target's entries, chosen from an entry's detail. */
  targetId?: string;
  /** The first day shown, YYYY-MM-DD. */
  from?: string;
  /** The last day shown, YYYY-MM-DD: entries through the end of that day. */
  to?: string;
}

export const AUDIT_LOG_LIST_PATH = '/api/v1/audit-log';
export const AUDIT_LOG_EXPORT_PATH = '/api/v1/audit-log/export';

/** The order the filters are written in, so one view has one address. */
const FILTER_NAMES = [
  'actorKind',
  'actorMemberId',
  'actionGroup',
  'targetType',
  'targetId',
  'from',
  'to',
] as const satisfies readonly (keyof AuditLogFilters)[];

/** The list API's bound on an id filter's length. */
const ID_MAX_LENGTH = 100;
const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
/**
 * The server takes times from 1970 to 9999 (UTC); a day of the browser's calendar in those two years
 * may start outside them, so the first and last are not offered.
 */
const FIRST_YEAR = 1971;
const LAST_YEAR = 9998;

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | undefined =>
  values.find((known) => known === value);

const idOf = (value: string | null): string | undefined =>
  value && value.length <= ID_MAX_LENGTH ? value : undefined;

/** Midnight starting `days` days after the given YYYY-MM-DD day, in the browser's time zone; undefined for no such day. */
function localMidnight(day: string, days = 0): Date | undefined {
  const match = DAY_PATTERN.exec(day);
  if (!match) return undefined;
  const [year, month, date] = match.slice(1).map(Number) as [number, number, number];
  const start = new Date(year, month - 1, date);
  const isThatDay =
    start.getFullYear() === year && start.getMonth() === month - 1 && start.getDate() === date;
  if (!isThatDay || year < FIRST_YEAR || year > LAST_YEAR) return undefined;
  return days === 0 ? start : new Date(year, month - 1, date + days);
}

const dayOf = (value: string | null): string | undefined =>
  value !== null && localMidnight(value) ? value : undefined;

/** The filters an address's query holds; a value that is not one the page offers is left out. */
export function filtersFromSearch(search: URLSearchParams): AuditLogFilters {
  const actorKind = oneOf(AUDIT_ACTOR_KINDS, search.get('actorKind'));
  const targetType = oneOf(AUDIT_TARGET_TYPES, search.get('targetType'));
  const filters: AuditLogFilters = {
    actorKind,
    actorMemberId: actorKind === 'member' ? idOf(search.get('actorMemberId')) : undefined,
    actionGroup: oneOf(AUDIT_ACTION_GROUPS, search.get('actionGroup')),
    targetType,
    targetId: targetType ? idOf(search.get('targetId')) : undefined,
    from: dayOf(search.get('from')),
    to: dayOf(search.get('to')),
  };
  return withoutEmpty(filters);
}

function withoutEmpty(filters: AuditLogFilters): AuditLogFilters {
  return Object.fromEntries(
    FILTER_NAMES.flatMap((name) => (filters[name] ? [[name, filters[name]]] : [])),
  ) as AuditLogFilters;
}

/** The address query of a filtered view. */
export function searchOfFilters(filters: AuditLogFilters): URLSearchParams {
  return new URLSearchParams(Object.entries(withoutEmpty(filters)));
}

export const hasFilters = (filters: AuditLogFilters): boolean =>
  Object.keys(withoutEmpty(filters)).length > 0;

/**
 * The list API's filter query: the days become the instants the browser's calendar starts them at,
 * and since the API's `to` is exclusive, the chosen last day becomes the start of the day after it.
 */
export function apiQueryOf(filters: AuditLogFilters): URLSearchParams {
  const query = searchOfFilters(filters);
  const from = filters.from === undefined ? undefined : localMidnight(filters.from);
  const to = filters.to === undefined ? undefined : localMidnight(filters.to, 1);
  if (from) query.set('from', from.toISOString());
  if (to) query.set('to', to.toISOString());
  return query;
}

const withQuery = (path: string, query: URLSearchParams) => {
  const search = query.toString();
  return search ? `${path}?${search}` : path;
};

/** One page of the filtered list: the first, or the one after `cursor`. */
export function listPathOf(filters: AuditLogFilters, cursor: string | null): string {
  const query = apiQueryOf(filters);
  if (cursor) query.set('cursor', cursor);
  return withQuery(AUDIT_LOG_LIST_PATH, query);
}

/** The CSV of every entry the filters select (the export takes the list's filters, without pages). */
export function exportHrefOf(filters: AuditLogFilters): string {
  return withQuery(AUDIT_LOG_EXPORT_PATH, apiQueryOf(filters));
}

/** The actor filter as one choice: a member's id, or the kind for the operator and the system. */
export type ActorChoice = `member:${string}` | Exclude<AuditActorKind, 'member'>;

export function actorChoiceOf(filters: AuditLogFilters): ActorChoice | null {
  if (filters.actorKind === 'member') return filters.actorMemberId ? `member:${filters.actorMemberId}` : null;
  return filters.actorKind ?? null;
}

export function withActorChoice(filters: AuditLogFilters, choice: string | null): AuditLogFilters {
  const memberId = choice?.startsWith('member:') ? choice.slice('member:'.length) : undefined;
  const kind = memberId ? 'member' : oneOf(AUDIT_ACTOR_KINDS, choice);
  return { ...filters, actorKind: kind, actorMemberId: memberId };
}
