import { describe, expect, it } from 'vitest';
import { SessionCache } from './session-cache.ts';

const FAR = Number.MAX_SAFE_INTEGER;

function liveCache(limits = { maxEntries: 10, maxAgeMs: 30_000 }) {
  let now = 1_000;
  const cache = new SessionCache<string>(limits, () => now);
  cache.live(true);
  let reads = 0;
  /** `null` stands for a lookup that found nothing. */
  const read = (key: string, value: string | null = `answer ${key}`, usableUntil = FAR) =>
    cache.read(key, async () => {
      reads += 1;
      return value === null ? undefined : { value, usableUntil };
    });
  return {
    cache,
    read,
    reads: () => reads,
    advance: (ms: number) => {
      now += ms;
    },
    at: () => now,
  };
}

describe('SessionCache', () => {
  it('answers a kept value without reading again', async () => {
    const { read, reads } = liveCache();
    expect(await read('a')).toBe('answer a');
    expect(await read('a')).toBe('answer a');
    expect(reads()).toBe(1);
  });

  it('keeps nothing while its change feed is not live, and forgets everything when it stops', async () => {
    const { cache, read, reads } = liveCache();
    await read('a');
    cache.live(false);
    await read('a');
    await read('a');
    expect(reads()).toBe(3);
    cache.live(true);
    await read('a');
    await read('a');
    expect(reads()).toBe(4);
  });

  it('forgets everything at a change', async () => {
    const { cache, read, reads } = liveCache();
    await read('a');
    await read('b');
    cache.changed();
    await read('a');
    await read('b');
    expect(reads()).toBe(4);
  });

  it('does not keep an answer read while a change came in', async () => {
    const { cache, reads } = liveCache();
    let release: () => void = () => undefined;
    const pending = cache.read('a', async () => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return { value: 'read before the change', usableUntil: FAR };
    });
    cache.changed();
    release();
    expect(await pending).toBe('read before the change');
    expect(await cache.read('a', async () => ({ value: 'read after', usableUntil: FAR }))).toBe('read after');
    expect(reads()).toBe(0);
  });

  it('does not keep "nothing found"', async () => {
    const { read, reads } = liveCache();
    expect(await read('gone', null)).toBeUndefined();
    expect(await read('gone', null)).toBeUndefined();
    expect(reads()).toBe(2);
  });

  it('uses an answer neither past the end of its session nor longer than the longest age', async () => {
    const { read, reads, advance, at } = liveCache({ maxEntries: 10, maxAgeMs: 30_000 });
    await read('ending', 'answer', at() + 5_000);
    advance(4_999);
    await read('ending', 'answer', at() + 5_000);
    expect(reads()).toBe(1);
    advance(1);
    await read('ending');
    expect(reads()).toBe(2);

    await read('long');
    advance(29_999);
    await read('long');
    expect(reads()).toBe(3);
    advance(1);
    await read('long');
    expect(reads()).toBe(4);
  });

  it('drops the oldest answer when full', async () => {
    const { read, reads } = liveCache({ maxEntries: 2, maxAgeMs: 30_000 });
    await read('a');
    await read('b');
    await read('c');
    expect(reads()).toBe(3);
    await read('b');
    await read('c');
    expect(reads()).toBe(3);
    await read('a');
    expect(reads()).toBe(4);
  });
});
