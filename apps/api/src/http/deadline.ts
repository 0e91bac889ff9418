import { setTimeout } from 'node:timers/promises';

/** What `promise` settles with, or undefined once `ms` have passed without it (it runs on unheeded). */
export async function withinMs<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  const timer = new AbortController();
  try {
    return await Promise.race([promise, setTimeout(ms, undefined, { signal: timer.signal })]);
  } finally {
    timer.abort();
  }
}
