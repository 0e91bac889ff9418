import { describe, expect, it } from 'vitest';
import { createResource } from './resource';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('createResource', () => {
  it('fetches when first subscribed, once, and tells its subscribers', async () => {
    let fetches = 0;
    const resource = createResource(
      async () => {
        fetches += 1;
        return 'account';
      },
      () => 'served',
    );
    expect(resource.snapshot()).toEqual({ status: 'loading' });
    let notified = 0;
    resource.subscribe(() => (notified += 1));
    resource.subscribe(() => undefined);
    await new Promise((settled) => setTimeout(settled, 0));
    expect(resource.snapshot()).toEqual({ status: 'loaded', data: 'account' });
    expect(fetches).toBe(1);
    expect(notified).toBe(1);
  });

  it('never lets an older answer overwrite a newer one', async () => {
    const answers = [deferred<string>(), deferred<string>()];
    let call = 0;
    const resource = createResource(
      () => answers[call++]!.promise,
      () => 'served',
    );
    const first = resource.reload();
    const second = resource.reload();
    answers[1]!.resolve('signed in');
    await second;
    answers[0]!.resolve('signed out');
    await first;
    expect(resource.snapshot()).toEqual({ status: 'loaded', data: 'signed in' });
  });

  it('keeps what was set over a fetch still under way, and reports a failed fetch', async () => {
    const answer = deferred<string>();
    const resource = createResource(
      () => answer.promise,
      () => 'served',
    );
    const pending = resource.reload();
    resource.set('updated');
    answer.resolve('stale');
    await pending;
    expect(resource.snapshot()).toEqual({ status: 'loaded', data: 'updated' });

    const failing = createResource(
      () => Promise.reject(new Error('down')),
      () => 'served',
    );
    await failing.reload();
    expect(failing.snapshot()).toMatchObject({ status: 'error' });
  });
});
