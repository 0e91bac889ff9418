import { describe, expect, it } from 'vitest';
import {
  actorChoiceOf,
  apiQueryOf,
  exportHrefOf,
  filtersFromSearch,
  hasFilters,
  listPathOf,
  searchOfFilters,
  withActorChoice,
  type AuditLogFilters,
} from './audit-log-filters';

/** The instant the browser's calendar starts a day at (the test runs in whatever zone the machine has). */
const localMidnight = (year: number, monthIndex: number, day: number) =>
  new Date(year, monthIndex, day).toISOString();

describe('the audit log filters in the address', () => {
  it('reads back every filter it writes, in one order', () => {
    const filters: AuditLogFilters = {
      actorKind: 'member',
      actorMemberId: 'mem_1',
      actionGroup: 'member',
      targetType: 'member',
      targetId: 'mem_2',
      from: '2026-03-01',
      to: '2026-03-09',
    };
    const search = searchOfFilters(filters);
    expect(search.toString()).toBe(
      'actorKind=member&actorMemberId=mem_1&actionGroup=member&targetType=member&targetId=mem_2&from=2026-03-01&to=2026-03-09',
    );
    expect(filtersFromSearch(search)).toEqual(filters);
  });

  it('leaves out what the page does not offer', () => {
    const filters = filtersFromSearch(
      new URLSearchParams(
        'actorKind=robot&actorMemberId=m&actionGroup=nope&targetType=planet&from=2026-02-30&to=yesterday&cursor=1-2',
      ),
    );
    expect(filters).toEqual({});
    expect(hasFilters(filters)).toBe(false);
  });

  it('keeps an id only with what it belongs to', () => {
    expect(filtersFromSearch(new URLSearchParams('actorKind=system&actorMemberId=m1'))).toEqual({
      actorKind: 'system',
    });
    expect(filtersFromSearch(new URLSearchParams('targetId=t1'))).toEqual({});
    expect(filtersFromSearch(new URLSearchParams(`targetType=card&targetId=${'x'.repeat(101)}`))).toEqual({
      targetType: 'card',
    });
  });

  it('refuses days in years whose start or end may fall outside the server’s 1970–9999', () => {
    expect(filtersFromSearch(new URLSearchParams('from=1970-01-01&to=9999-12-31'))).toEqual({});
    expect(filtersFromSearch(new URLSearchParams('from=1971-01-01&to=9998-12-31'))).toEqual({
      from: '1971-01-01',
      to: '9998-12-31',
    });
  });
});

describe('the list API query of the filters', () => {
  it('starts at the first day’s midnight and ends before the midnight after the last day', () => {
    const query = apiQueryOf({ from: '2026-03-01', to: '2026-03-09' });
    expect(query.get('from')).toBe(localMidnight(2026, 2, 1));
    expect(query.get('to')).toBe(localMidnight(2026, 2, 10));
  });

  it('ends the last day of a month and of a year at the next one’s first midnight', () => {
    expect(apiQueryOf({ to: '2026-02-28' }).get('to')).toBe(localMidnight(2026, 2, 1));
    expect(apiQueryOf({ to: '2026-12-31' }).get('to')).toBe(localMidnight(2027, 0, 1));
  });

  it('asks for the next page from the cursor, with the same filters', () => {
    expect(listPathOf({}, null)).toBe('/api/v1/audit-log');
    expect(listPathOf({ actionGroup: 'member' }, '1767600000000-42')).toBe(
      '/api/v1/audit-log?actionGroup=member&cursor=1767600000000-42',
    );
  });
});

describe('the export link', () => {
  it('carries the list’s filters, without a cursor or a page size', () => {
    const href = exportHrefOf({ actorKind: 'operator', actionGroup: 'billing', to: '2026-03-09' });
    const url = new URL(href, 'http://portal');
    expect(url.pathname).toBe('/api/v1/audit-log/export');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      actorKind: 'operator',
      actionGroup: 'billing',
      to: localMidnight(2026, 2, 10),
    });
  });

  it('is the whole log without filters', () => {
    expect(exportHrefOf({})).toBe('/api/v1/audit-log/export');
  });
});

describe('the actor filter as one choice', () => {
  it('is a member’s id, or the operator or the system', () => {
    const member = withActorChoice({ actionGroup: 'member' }, 'member:mem_1');
    expect(member).toEqual({ actionGroup: 'member', actorKind: 'member', actorMemberId: 'mem_1' });
    expect(actorChoiceOf(member)).toBe('member:mem_1');

    const operator = withActorChoice(member, 'operator');
    expect(searchOfFilters(operator).toString()).toBe('actorKind=operator&actionGroup=member');
    expect(actorChoiceOf(operator)).toBe('operator');

    const cleared = withActorChoice(operator, null);
    expect(searchOfFilters(cleared).toString()).toBe('actionGroup=member');
    expect(actorChoiceOf(cleared)).toBeNull();
  });
});
