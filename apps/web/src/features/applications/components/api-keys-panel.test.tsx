// @vitest-environment jsdom
import type { ApiKey, CreatedApiKey, RotateApiKeyResponse } from '@portal/contracts';
import { QueryClient } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { activeApplication, renderSignedInPart, stubApi } from '../../../components/render-for-test';
import { ApiKeysPanel } from './api-keys-panel';

// The machine may be busy: what the panel shows once its answer is in may take more than a second.
configure({ asyncUtilTimeout: 10_000 });

const app = activeApplication();

const KEYS_PATH = '/api/v1/applications/app-1/api-keys';

function key(id: string, overrides: Partial<ApiKey> = {}): ApiKey {
  return {
    id,
    name: `Key ${id}`,
    prefix: `rk_${id.padEnd(8, '0')}`,
    createdAt: '2026-03-01T10:00:00.000Z',
    expiresAt: null,
    revokedAt: null,
    lastUsedAt: null,
    status: 'active',
    ...overrides,
  };
}

let api: ReturnType<typeof stubApi>;
const answer = (method: string, path: string, body: unknown, status = 200) => api.answer(method, path, body, status);

beforeEach(() => {
  api = stubApi();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const renderPanel = () =>
  renderSignedInPart(
    <ApiKeysPanel app={app} />,
    new QueryClient({ defaultOptions: { queries: { retry: false } } }),
  );

const rowOf = (name: string) =>
  within(screen.getByRole('table', { name: 'API keys of Nebula Chat' }))
    .getAllByRole('row')
    .find((row) => within(row).queryByText(name, { exact: true }));

describe('the API keys of an application', { timeout: 30_000 }, () => {
  it('lists each key with its prefix, last use and status, offering Rotate and Revoke on working keys only', async () => {
    const stopsAt = new Date(2026, 2, 9, 14, 30).toISOString();
    const usedAt = new Date(2026, 2, 8, 8, 5).toISOString();
    answer('GET', KEYS_PATH, {
      results: [
        key('new', { name: 'Mobile', lastUsedAt: usedAt }),
        key('old', { name: 'Default key', status: 'expiring', expiresAt: stopsAt }),
        key('gone', { name: 'Leaked', status: 'revoked', revokedAt: usedAt }),
        key('past', { name: 'First', status: 'expired', expiresAt: usedAt }),
      ],
    });
    renderPanel();

    await screen.findByRole('table', { name: 'API keys of Nebula Chat' });
    const mobile = rowOf('Mobile')!;
    expect(mobile.textContent).toContain('rk_new00000…');
    expect(mobile.textContent).toContain('08 Mar 2026 08:05');
    expect(mobile.textContent).toContain('Active');
    expect(rowOf('Default key')!.textContent).toContain('Never');
    expect(rowOf('Default key')!.textContent).toContain('Stops 09 Mar 2026 14:30');
    expect(rowOf('Leaked')!.textContent).toContain('Revoked');
    expect(rowOf('First')!.textContent).toContain('Stopped');

    for (const working of ['Mobile', 'Default key']) {
      expect(screen.getByRole('button', { name: `Rotate ${working}` })).toBeDefined();
      expect(screen.getByRole('button', { name: `Revoke ${working}` })).toBeDefined();
    }
    for (const stopped of ['Leaked', 'First']) {
      expect(screen.queryByRole('button', { name: `Rotate ${stopped}` })).toBeNull();
      expect(screen.queryByRole('button', { name: `Revoke ${stopped}` })).toBeNull();
    }
  });

  it('disables Create key while 5 keys work, saying why; a stopped key leaves room', async () => {
    const five = ['a', 'b', 'c', 'd', 'e'].map((id) =>
      key(id, {
        status: id === 'e' ? 'expiring' : 'active',
        expiresAt: id === 'e' ? '2030-01-01T00:00:00.000Z' : null,
      }),
    );
    answer('GET', KEYS_PATH, { results: five });
    const { unmount } = renderPanel();
    const create = await screen.findByRole('button', { name: 'Create key' });
    expect(create.hasAttribute('disabled')).toBe(true);
    expect(screen.getByText(/5 keys already work/)).toBeDefined();
    unmount();

    answer('GET', KEYS_PATH, {
      results: [...five.slice(0, 4), key('e', { status: 'revoked', revokedAt: '2026-03-01T11:00:00.000Z' })],
    });
    renderPanel();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Create key' }).hasAttribute('disabled')).toBe(false),
    );
    expect(screen.queryByText(/5 keys already work/)).toBeNull();
    expect((screen.getByRole('textbox', { name: 'New key name' }) as HTMLInputElement).value).toBe('Key 6');
  });

  it('shows a created key once, with a copy button and the warning, and reloads the list', async () => {
    answer('GET', KEYS_PATH, { results: [key('first', { name: 'Default key' })] });
    const created: CreatedApiKey = {
      ...key('made', { name: 'Backend' }),
      secret: 'rk_made0000-the-whole-secret',
    };
    answer('POST', KEYS_PATH, created, 201);
    answer('GET', KEYS_PATH, {
      results: [key('made', { name: 'Backend' }), key('first', { name: 'Default key' })],
    });
    renderPanel();

    const name = await screen.findByRole('textbox', { name: 'New key name' });
    expect((name as HTMLInputElement).value).toBe('Key 2');
    fireEvent.change(name, { target: { value: ' Backend ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create key' }));

    const dialog = await screen.findByRole('dialog', { name: 'Your new API key' });
    expect(within(dialog).getByText('rk_made0000-the-whole-secret')).toBeDefined();
    expect(within(dialog).getByRole('button', { name: 'Copy API key' })).toBeDefined();
    expect(within(dialog).getByText('Copy this key now. It will not be shown again.')).toBeDefined();
    expect(api.sent.find((request) => request.method === 'POST')?.body).toEqual({ name: 'Backend' });
    await waitFor(() => expect(rowOf('Backend')).toBeDefined());

    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByText('rk_made0000-the-whole-secret')).toBeNull());
    expect(screen.getByRole('table', { name: 'API keys of Nebula Chat' })).toBeDefined();
  });

  it('rotates a key with the overlap chosen, then shows the new key and when the old one stops', async () => {
    answer('GET', KEYS_PATH, { results: [key('first', { name: 'Default key' })] });
    const stopsAt = new Date(2026, 2, 9, 15, 0).toISOString();
    const rotation: RotateApiKeyResponse = {
      created: { ...key('next', { name: 'Default key' }), secret: 'rk_next0000-rotated-secret' },
      rotated: key('first', { name: 'Default key', status: 'expiring', expiresAt: stopsAt }),
    };
    answer('POST', `${KEYS_PATH}/first/rotate`, rotation, 201);
    renderPanel();

    fireEvent.click(await screen.findByRole('button', { name: 'Rotate Default key' }));
    const rotate = await screen.findByRole('dialog', { name: 'Rotate API key' });
    fireEvent.click(within(rotate).getByRole('radio', { name: '1 hour' }));
    fireEvent.click(within(rotate).getByRole('button', { name: 'Rotate key' }));

    const shown = await screen.findByRole('dialog', { name: 'Your new API key' });
    expect(within(shown).getByText('rk_next0000-rotated-secret')).toBeDefined();
    expect(shown.textContent).toContain('Default key keeps working until 09 Mar 2026 15:00.');
    expect(api.sent.find((request) => request.method === 'POST')?.body).toEqual({ overlap: '1h' });
  });

  it('offers only "Now" when rotating while 5 keys work: an overlap would need a sixth', async () => {
    answer('GET', KEYS_PATH, { results: ['a', 'b', 'c', 'd', 'e'].map((id) => key(id)) });
    renderPanel();

    fireEvent.click(await screen.findByRole('button', { name: 'Rotate Key a' }));
    const rotate = await screen.findByRole('dialog', { name: 'Rotate API key' });
    expect((within(rotate).getByRole('radio', { name: 'Now' }) as HTMLInputElement).checked).toBe(true);
    for (const overlap of ['1 hour', '24 hours', '7 days'])
      expect(within(rotate).getByRole('radio', { name: overlap }).hasAttribute('disabled')).toBe(true);
    expect(rotate.textContent).toContain('With 5 keys working, the old key can only stop now');
  });

  it("shows the server's refusal in the dialog and keeps it open", async () => {
    answer('GET', KEYS_PATH, { results: [key('first', { name: 'Default key' })] });
    answer(
      'POST',
      `${KEYS_PATH}/first/revoke`,
      { code: 'REGION_UNAVAILABLE', message: 'The region of this application cannot be reached.' },
      503,
    );
    renderPanel();

    fireEvent.click(await screen.findByRole('button', { name: 'Revoke Default key' }));
    const revoke = await screen.findByRole('dialog', { name: 'Revoke API key' });
    expect(revoke.textContent).toContain(
      'Revoke Default key (rk_first000…)? Apps using this key stop working at once.',
    );
    fireEvent.click(within(revoke).getByRole('button', { name: 'Revoke key' }));

    expect((await within(revoke).findByRole('alert')).textContent).toContain(
      'The region of this application cannot be reached.',
    );
    expect(screen.getByRole('dialog', { name: 'Revoke API key' })).toBeDefined();
  });
});
