// @vitest-environment jsdom
import type { PublicConfig } from '@portal/contracts';
import { QueryObserver, type QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { FirstRenderData } from './first-render';
import { createQueryClient, SERVED_DATA_FRESH_MS } from './query-client';

const SERVED_KEY = ['applications', { limit: 10 }] as const;

const firstRender: FirstRenderData = {
  account: null,
  config: {} as PublicConfig,
  queries: [{ queryKey: SERVED_KEY, data: { data: ['served'] } }],
};

/** Mounts an observer of `queryKey` as a component would; answers how often it fetched, once settled. */
async function fetchesOnMount(client: QueryClient, queryKey: readonly unknown[]): Promise<number> {
  const queryFn = vi.fn(() => Promise.resolve({ data: ['fetched'] }));
  const observer = new QueryObserver(client, { queryKey, queryFn });
  const unsubscribe = observer.subscribe(() => undefined);
  // Room for a busy machine: the wait ends as soon as nothing is fetching.
  await vi.waitFor(() => expect(client.isFetching()).toBe(0), { timeout: 10_000 });
  unsubscribe();
  return queryFn.mock.calls.length;
}

describe('the query cache of a server-rendered page', () => {
  it('does not ask again, when the page mounts, for what the page was rendered with', async () => {
    const client = createQueryClient(firstRender);
    expect(await fetchesOnMount(client, SERVED_KEY)).toBe(0);
    expect(client.getQueryData(SERVED_KEY)).toEqual({ data: ['served'] });
  });

  it('asks for it once it is as old as an answer would be stale, or once a change invalidates it', async () => {
    const longAgo = createQueryClient(firstRender, Date.now() - SERVED_DATA_FRESH_MS - 1);
    expect(await fetchesOnMount(longAgo, SERVED_KEY)).toBe(1);

    const invalidated = createQueryClient(firstRender);
    await invalidated.invalidateQueries({ queryKey: ['applications'] });
    expect(await fetchesOnMount(invalidated, SERVED_KEY)).toBe(1);
    expect(invalidated.getQueryData(SERVED_KEY)).toEqual({ data: ['fetched'] });
  });

  it('asks at once for what it was not given, and again on the next mount once fetched', async () => {
    const client = createQueryClient(firstRender);
    expect(await fetchesOnMount(client, ['usage-alerts', 'notices'])).toBe(1);
    expect(await fetchesOnMount(client, ['usage-alerts', 'notices'])).toBe(1);
  });
});
