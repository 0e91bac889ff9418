import {
  APP_LIST_PAGE_SIZE,
  COUNTED_APPLICATION_STATES,
  uiPermissions,
  type Account,
  type Application,
  type ApplicationState,
  type Permission,
  type PlanKey,
  type RegionKey,
} from '@portal/contracts';
import { formatDate, type DisplayTimeZone } from '../../lib/dates';
import type { BadgeColor } from '../../components/plain/layout';

export interface ApplicationFilters {
  search: string;
  plans: readonly PlanKey[];
  regions: readonly RegionKey[];
}

/** What a search term is matched against, per app: its name and ID, lower-cased once per list. */
export type SearchIndex = ReadonlyMap<Application, string>;

export function searchIndex(apps: readonly Application[]): SearchIndex {
  // A newline cannot be typed into the search field, so no term matches across name and ID.
  return new Map(apps.map((app) => [app, `${app.name}\n${app.applicationId}`.toLowerCase()]));
}

/**
 * §2 search and filters, all client-side. An empty plan or region choice means any; the search
 * matches a part of the name or ID, ignoring case. Pass the list's `searchIndex` when filtering
 * the same list again and again (every keystroke).
 */
export function filterApplications(
  apps: readonly Application[],
  filters: ApplicationFilters,
  index: SearchIndex = searchIndex(apps),
): Application[] {
  const term = filters.search.trim().toLowerCase();
  const plans = new Set(filters.plans);
  const regions = new Set(filters.regions);
  return apps.filter(
    (app) =>
      (plans.size === 0 || plans.has(app.plan)) &&
      (regions.size === 0 || regions.has(app.region)) &&
      (term === '' || (index.get(app) ?? '').includes(term)),
  );
}

export function pageCount(total: number, pageSize = APP_LIST_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** The items of a 1-based page; a page past the end (the list shrank) shows the last one. */
export function pageOf<T>(items: readonly T[], page: number, pageSize = APP_LIST_PAGE_SIZE): T[] {
  const current = Math.min(Math.max(1, page), pageCount(items.length, pageSize));
  return items.slice((current - 1) * pageSize, current * pageSize);
}

/** Apps that use up the organisation's applicationLimit. */
export function countedApplications(apps: readonly Application[]): number {
  return apps.filter((app) => COUNTED_APPLICATION_STATES.includes(app.state)).length;
}

/** §2: with CREATE_APPLICATION, an active account, and room below applicationLimit. */
export function canCreateApplication(
  account: Pick<Account, 'permissions' | 'accountStatus' | 'applicationLimit'>,
  counted: number,
): boolean {
  return (
    uiPermissions(account.permissions).includes('CREATE_APPLICATION') &&
    account.accountStatus === 'active' &&
    counted < account.applicationLimit
  );
}

/** Green is kept for active apps alone (§2); an app being provisioned stands out in orange. */
export function stateTagColor(state: ApplicationState): BadgeColor {
  if (state === 'active') return 'green';
  if (state === 'initializing') return 'orange';
  return 'gray';
}

/** A temporarily inactive app shows when it was deactivated; every other app when it was created. */
export function cardDate(
  app: Pick<Application, 'state' | 'createdAt' | 'deactivatedAt'>,
  timeZone: DisplayTimeZone = 'browser',
): {
  kind: 'created' | 'deactivated';
  date: string;
} {
  if (app.state === 'temporary_inactive' && app.deactivatedAt) {
    return { kind: 'deactivated', date: formatDate(app.deactivatedAt, timeZone) };
  }
  return { kind: 'created', date: formatDate(app.createdAt, timeZone) };
}

/** The plan is a PAYG notion; flat-rate contracts do not show it (§2). */
export function showsPlan(contractType: Account['contractType']): boolean {
  return contractType === 'payg';
}

/** The console is not reachable while the app is being provisioned or once it is gone. */
export function canOpenConsole(app: Pick<Application, 'state' | 'consoleUrl'>): boolean {
  return app.state !== 'deleted' && app.state !== 'initializing' && Boolean(app.consoleUrl);
}

export type ApplicationAction = 'update' | 'apiKeys' | 'deactivate' | 'reactivate';

/**
 * §2/§4: only active apps can be edited, have their API keys managed (decision 043) or be
 * deactivated, only deactivated ones reactivated, all with EDIT_APPLICATION.
 */
export function applicationActions(
  state: ApplicationState,
  permissions: readonly Permission[],
): ApplicationAction[] {
  if (!permissions.includes('EDIT_APPLICATION')) return [];
  if (state === 'active') return ['update', 'apiKeys', 'deactivate'];
  if (state === 'deactivated') return ['reactivate'];
  return [];
}

/** Save in the edit modal (§5): the trimmed name must be set and differ from the current one. */
export function canSaveName(original: string, value: string): boolean {
  const trimmed = value.trim();
  return trimmed !== '' && trimmed !== original;
}
