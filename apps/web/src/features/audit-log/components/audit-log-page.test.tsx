// @vitest-environment jsdom
import type { AuditLogEntry, ListAuditLogResponse } from '@portal/contracts';
import { QueryClient } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderSignedInPart, stubApi } from '../../../components/render-for-test';
import { addMessages } from '../../../lib/i18n';
import { enAuditLog } from '../../../locales/en-audit-log';
import { AuditLogPage } from './audit-log-page';

const entry = (id: string, overrides: Partial<AuditLogEntry> = {}): AuditLogEntry => ({
  id,
  createdAt: '2026-03-09T10:15:30.000Z',
  actor: { kind: 'member', memberId: 'm-owner', email: 'owner@acme.io' },
  action: 'member.role_changed',
  actionGroup: 'member',
  target: { type: 'member', id: 'm-dev', name: `dev${id}@acme.io` },
  ip: '203.0.113.9',
  userAgent: 'Firefox',
  requestId: 'req-1',
  changes: { role: { before: 'portal.developer', after: 'portal.analyst' } },
  ...overrides,
});

// The machine may be busy: what the page shows once its answer is in may take more than a second.
configure({ asyncUtilTimeout: 10_000 });

let api: ReturnType<typeof stubApi>;
/** The list's answers by path and query, in order; a path with none left answers 500. */
const answer = (path: string, body: ListAuditLogResponse | { code: string; message: string }, status = 200) =>
  api.answer('GET', path, body, status);
const requested = () => api.sent.map((request) => request.path);

beforeEach(() => {
  addMessages(enAuditLog);
  api = stubApi();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const renderPage = () =>
  renderSignedInPart(
    <AuditLogPage members={[{ id: 'm-owner', email: 'owner@acme.io' }]} />,
    new QueryClient({ defaultOptions: { queries: { retry: false } } }),
  );

const rows = () =>
  within(screen.getByRole('table', { name: 'Audit log entries' }))
    .getAllByRole('row')
    .slice(1);

describe('the audit log page', { timeout: 30_000 }, () => {
  it('loads more from the cursor below the entries already shown, until the last page', async () => {
    answer('/api/v1/audit-log', { results: [entry('3'), entry('2')], nextCursor: '1773051330000-2' });
    answer('/api/v1/audit-log?cursor=1773051330000-2', { results: [entry('1')], nextCursor: null });
    renderPage();

    expect(screen.getByRole('status', { name: 'Loading' })).toBeDefined();
    await screen.findByText('dev3@acme.io');
    expect(rows()).toHaveLength(2);
    expect(rows()[0]?.textContent).toContain('owner@acme.io');
    expect(rows()[0]?.textContent).toContain('Member role changed');

    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await screen.findByText('dev1@acme.io');
    expect(rows().map((row) => within(row).getAllByRole('cell')[3]?.textContent)).toEqual([
      'dev3@acme.ioMember',
      'dev2@acme.ioMember',
      'dev1@acme.ioMember',
    ]);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('offers a retry when the list fails, and says when there is nothing yet', async () => {
    answer('/api/v1/audit-log', { code: 'UNAVAILABLE', message: 'The log is resting.' }, 503);
    answer('/api/v1/audit-log', { results: [], nextCursor: null });
    renderPage();

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The audit log could not be loaded.');
    expect(alert.textContent).toContain('The log is resting.');
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect((await screen.findByRole('status')).textContent).toBe('No activity yet');
  });

  it('reads the list again from its first page for a new filter, and says nothing matches it', async () => {
    answer('/api/v1/audit-log', { results: [entry('1')], nextCursor: '1773051330000-1' });
    const from = encodeURIComponent(new Date(2026, 2, 1).toISOString());
    answer(`/api/v1/audit-log?from=${from}`, { results: [], nextCursor: null });
    renderPage();
    await screen.findByText('dev1@acme.io');

    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-03-01' } });
    expect((await screen.findByText('No entries match these filters')).getAttribute('role')).toBe('status');
    expect(requested()).toEqual(['/api/v1/audit-log', `/api/v1/audit-log?from=${from}`]);
    const exportLink = screen.getByRole('link', { name: 'Export CSV' });
    expect(exportLink.getAttribute('href')).toBe(`/api/v1/audit-log/export?from=${from}`);
    expect(exportLink.hasAttribute('download')).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await screen.findByText('dev1@acme.io');
  });

  it('opens an entry with every field, an absent value as a dash, and filters to its target', async () => {
    answer('/api/v1/audit-log', {
      results: [entry('1', { changes: { applicationScope: { after: ['app-1', 'app-2'] } } })],
      nextCursor: null,
    });
    answer('/api/v1/audit-log?targetType=member&targetId=m-dev', { results: [entry('1')], nextCursor: null });
    renderPage();

    fireEvent.click(await screen.findByRole('button', { name: 'Member role changed' }));
    const detail = await screen.findByRole('dialog', { name: 'Audit log entry' });
    for (const text of [
      '2026-03-09 10:15:30 UTC',
      'owner@acme.io',
      'm-dev',
      'dev1@acme.io',
      '203.0.113.9',
      'Firefox',
      'req-1',
    ])
      expect(within(detail).getByText(text)).toBeDefined();
    const change = within(within(detail).getByRole('table', { name: 'Changes' })).getAllByRole('row')[1]!;
    expect(
      within(change)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['applicationScope', '—', 'app-1, app-2']);

    fireEvent.click(within(detail).getByRole('button', { name: 'Show entries for this target' }));
    expect(await screen.findByText('Only entries for dev1@acme.io (Member)')).toBeDefined();
    expect(requested().at(-1)).toBe('/api/v1/audit-log?targetType=member&targetId=m-dev');
  });
});
