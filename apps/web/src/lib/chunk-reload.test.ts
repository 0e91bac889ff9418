import { describe, expect, it } from 'vitest';
import { CHUNK_RELOAD_KEY, reloadOnceOnChunkFailure, type ChunkReloadEnvironment } from './chunk-reload';

function environment(page = '/signup') {
  const stored = new Map<string, string>();
  const reloads: string[] = [];
  const env: ChunkReloadEnvironment = {
    storage: {
      getItem: (key) => stored.get(key) ?? null,
      setItem: (key, value) => void stored.set(key, value),
      removeItem: (key) => void stored.delete(key),
    },
    targetPage: () => page,
    openFully: (opened) => void reloads.push(opened),
  };
  return { env, stored, reloads };
}

const mark = (page: string, chunk: string) => JSON.stringify({ page, chunk });
const missing = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
const settledWithin = async <T>(promise: Promise<T>) =>
  Promise.race([
    promise.then(
      () => 'resolved',
      () => 'rejected',
    ),
    new Promise((resolve) => setTimeout(() => resolve('pending'), 20)),
  ]);

describe('reloadOnceOnChunkFailure', () => {
  it('opens the page afresh the first time its chunk fails, and renders nothing meanwhile', async () => {
    const { env, stored, reloads } = environment();
    const load = reloadOnceOnChunkFailure(missing, 'signup', env);
    expect(await settledWithin(load())).toBe('pending');
    expect(reloads).toEqual(['/signup']);
    expect(stored.get(CHUNK_RELOAD_KEY)).toBe(mark('/signup', 'signup'));
  });

  it('fails with the chunk named when it fails again after the reload', async () => {
    const { env, stored, reloads } = environment();
    stored.set(CHUNK_RELOAD_KEY, mark('/signup', 'signup'));
    const load = reloadOnceOnChunkFailure(missing, 'signup', env);
    await expect(load()).rejects.toThrow('Loading chunk signup failed.');
    expect(reloads).toEqual([]);
    expect(stored.has(CHUNK_RELOAD_KEY)).toBe(false);
  });

  it('clears the mark once a chunk loads, so a later release reloads again', async () => {
    const { env, stored } = environment();
    stored.set(CHUNK_RELOAD_KEY, mark('/signup', 'signup'));
    const load = reloadOnceOnChunkFailure(async () => ({ Component: 'page' }), 'signup', env);
    await expect(load()).resolves.toEqual({ Component: 'page' });
    expect(stored.has(CHUNK_RELOAD_KEY)).toBe(false);
  });

  it('reloads for a failure on another page even after one reload elsewhere', async () => {
    const { env, reloads, stored } = environment('/login');
    stored.set(CHUNK_RELOAD_KEY, mark('/signup', 'signup'));
    expect(await settledWithin(reloadOnceOnChunkFailure(missing, 'login', env)())).toBe('pending');
    expect(reloads).toEqual(['/login']);
  });

  it('keeps the mark while another chunk of the same page loads, so a reload never repeats', async () => {
    const { env, stored, reloads } = environment('/manage-members');
    stored.set(CHUNK_RELOAD_KEY, mark('/manage-members', 'manage-members'));
    await reloadOnceOnChunkFailure(async () => ({ Component: 'layout' }), 'app-layout', env)();
    await expect(reloadOnceOnChunkFailure(missing, 'manage-members', env)()).rejects.toThrow(
      'Loading chunk manage-members failed.',
    );
    expect(reloads).toEqual([]);
  });
});
