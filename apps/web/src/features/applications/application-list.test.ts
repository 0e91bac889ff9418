import { APPLICATION_STATES, type Application, type PlanKey, type RegionKey } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import {
  applicationActions,
  canCreateApplication,
  canOpenConsole,
  canSaveName,
  cardDate,
  countedApplications,
  filterApplications,
  searchIndex,
  pageCount,
  pageOf,
  showsPlan,
  stateTagColor,
} from './application-list';

function app(overrides: Partial<Application> = {}): Application {
  return {
    applicationId: 'app-1',
    name: 'Chat App',
    plan: 'advance',
    planName: 'Advance',
    region: 'EU',
    state: 'active',
    createdAt: '2025-03-14T12:00:00.000Z',
    deactivatedAt: null,
    consoleUrl: 'https://console.example/app-1',
    description: '',
    networkId: 'net-1',
    ...overrides,
  };
}

const none = { search: '', plans: [] as PlanKey[], regions: [] as RegionKey[] };

describe('filterApplications', () => {
  const apps = [
    app({ applicationId: 'a1b2', name: 'Support Chat', plan: 'basic', region: 'SG' }),
    app({ applicationId: 'c3d4', name: 'Video Rooms', plan: 'max', region: 'US' }),
    app({ applicationId: 'e5f6', name: 'Live chat', plan: 'advance', region: 'EU' }),
  ];
  const ids = (list: Application[]) => list.map((a) => a.applicationId);

  it('keeps everything without a search or filter', () => {
    expect(ids(filterApplications(apps, none))).toEqual(['a1b2', 'c3d4', 'e5f6']);
  });

  it('searches names ignoring case and surrounding spaces', () => {
    expect(ids(filterApplications(apps, { ...none, search: '  CHAT ' }))).toEqual(['a1b2', 'e5f6']);
  });

  it('searches IDs', () => {
    expect(ids(filterApplications(apps, { ...none, search: 'C3D' }))).toEqual(['c3d4']);
  });

  it('filters by any of the chosen plans and regions', () => {
    expect(ids(filterApplications(apps, { ...none, plans: ['basic', 'max'] }))).toEqual(['a1b2', 'c3d4']);
    expect(ids(filterApplications(apps, { ...none, regions: ['EU'] }))).toEqual(['e5f6']);
  });

  it('combines search, plan and region', () => {
    expect(
      ids(filterApplications(apps, { search: 'chat', plans: ['basic', 'advance'], regions: ['EU'] })),
    ).toEqual(['e5f6']);
    expect(filterApplications(apps, { search: 'video', plans: ['basic'], regions: [] })).toEqual([]);
  });

  // Speed is measured by `npm run bench:search`; this checks the answers over a list of that size.
  it('filters 10,000 apps with a search index made once, as the page does on every keystroke', () => {
    const many = Array.from({ length: 10_000 }, (_, i) =>
      app({ applicationId: `id-${i}`, name: `Application ${i}` }),
    );
    const index = searchIndex(many);
    expect(filterApplications(many, { ...none, search: 'application 99' }, index)).toHaveLength(111);
    expect(filterApplications(many, { ...none, search: 'ID-9999' }, index).map((a) => a.name)).toEqual([
      'Application 9999',
    ]);
    expect(filterApplications(many, { ...none, search: 'application 99' }, index)).toEqual(
      filterApplications(many, { ...none, search: 'application 99' }),
    );
  });
});

describe('pagination', () => {
  const items = Array.from({ length: 30 }, (_, i) => i + 1);

  it('counts pages of 12, with at least one', () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(12)).toBe(1);
    expect(pageCount(13)).toBe(2);
    expect(pageCount(30)).toBe(3);
  });

  it('gives the items of a page', () => {
    expect(pageOf(items, 1)).toEqual(items.slice(0, 12));
    expect(pageOf(items, 3)).toEqual([25, 26, 27, 28, 29, 30]);
  });

  it('shows the last page when asked for one past the end', () => {
    expect(pageOf(items, 9)).toEqual([25, 26, 27, 28, 29, 30]);
    expect(pageOf(items, 0)).toEqual(items.slice(0, 12));
  });
});

describe('counted apps and the create button', () => {
  // One app in each of the six states.
  const apps = APPLICATION_STATES.map((state, i) => app({ applicationId: `a${i}`, state }));
  const account = { permissions: [], accountStatus: 'active' as const, applicationLimit: 4 };

  it('counts active, initializing and temporarily inactive apps only', () => {
    expect(countedApplications(apps)).toBe(3);
  });

  it('allows creating below the limit on an active account', () => {
    expect(canCreateApplication(account, 3)).toBe(true);
  });

  it('refuses at the limit', () => {
    expect(canCreateApplication(account, 4)).toBe(false);
  });

  it('refuses on an inactive account', () => {
    expect(canCreateApplication({ ...account, accountStatus: 'inactive' }, 0)).toBe(false);
  });

  it('needs CREATE_APPLICATION, an empty permission list meaning all', () => {
    expect(
      canCreateApplication({ ...account, permissions: ['VIEW_APPLICATION', 'EDIT_APPLICATION'] }, 0),
    ).toBe(false);
    expect(canCreateApplication({ ...account, permissions: ['CREATE_APPLICATION'] }, 0)).toBe(true);
  });
});

describe('card display rules', () => {
  it('colours only active apps green', () => {
    expect(stateTagColor('active')).toBe('green');
    expect(stateTagColor('initializing')).toBe('orange');
    for (const state of ['temporary_inactive', 'inactive', 'deactivated', 'deleted'] as const) {
      expect(stateTagColor(state)).toBe('gray');
    }
  });

  it('shows the creation date as dd MMM yyyy', () => {
    expect(cardDate(app())).toEqual({ kind: 'created', date: '14 Mar 2025' });
  });

  it('shows the deactivation date of a temporarily inactive app', () => {
    const paused = app({ state: 'temporary_inactive', deactivatedAt: '2025-06-02T12:00:00.000Z' });
    expect(cardDate(paused)).toEqual({ kind: 'deactivated', date: '02 Jun 2025' });
    expect(cardDate({ ...paused, state: 'deactivated' })).toEqual({ kind: 'created', date: '14 Mar 2025' });
  });

  it('shows the plan only for PAYG contracts', () => {
    expect(showsPlan('payg')).toBe(true);
    expect(showsPlan('flat_rate')).toBe(false);
  });

  it('opens the console unless the app is deleted, initializing or has no console', () => {
    expect(canOpenConsole(app())).toBe(true);
    expect(canOpenConsole(app({ state: 'temporary_inactive' }))).toBe(true);
    expect(canOpenConsole(app({ state: 'deleted' }))).toBe(false);
    expect(canOpenConsole(app({ state: 'initializing' }))).toBe(false);
    expect(canOpenConsole(app({ consoleUrl: null }))).toBe(false);
  });
});

describe('menu actions', () => {
  const all = ['EDIT_APPLICATION'] as const;

  it('offers edit, API keys and deactivate on active apps with EDIT_APPLICATION', () => {
    expect(applicationActions('active', all)).toEqual(['update', 'apiKeys', 'deactivate']);
    expect(applicationActions('active', ['VIEW_APPLICATION'])).toEqual([]);
  });

  it('offers reactivation on deactivated apps only', () => {
    expect(applicationActions('deactivated', all)).toEqual(['reactivate']);
    expect(applicationActions('initializing', all)).toEqual([]);
    expect(applicationActions('deleted', all)).toEqual([]);
  });
});

describe('canSaveName', () => {
  it('needs a non-empty name different from the current one', () => {
    expect(canSaveName('My app', 'My app')).toBe(false);
    expect(canSaveName('My app', '  My app ')).toBe(false);
    expect(canSaveName('My app', '   ')).toBe(false);
    expect(canSaveName('My app', 'My new app')).toBe(true);
  });
});
