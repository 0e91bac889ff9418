// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';

/** A fresh copy of the modules that read the page once, after the page has been written. */
async function modulesOnPage(body: string) {
  document.body.innerHTML = body;
  vi.resetModules();
  const firstRender = await import('./first-render');
  const resource = await import('./resource');
  return { ...firstRender, ...resource };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('a server-rendered page in the browser', () => {
  it('starts the shared stores from the data the server rendered it with, fetching nothing again', async () => {
    const { browserFirstRender, createResource } = await modulesOnPage(
      '<div id="root"><main>Sign in</main></div>' +
        '<script type="application/json" id="portal-first-render">' +
        '{"account":null,"config":{"productName":"Social \\u003c/script>"},"queries":[]}</script>',
    );
    expect(browserFirstRender()).toEqual({
      account: null,
      config: { productName: 'Social </script>' },
      queries: [],
    });

    const fetcher = vi.fn(() => Promise.resolve({ productName: 'fetched' }));
    const config = createResource(fetcher, (data) => data.config);
    config.subscribe(() => undefined);
    await new Promise((settled) => setTimeout(settled, 0));
    expect(config.snapshot()).toEqual({ status: 'loaded', data: { productName: 'Social </script>' } });
    expect(fetcher).not.toHaveBeenCalled();

    // A later reload (a sign-in, say) still asks the server.
    await config.reload();
    expect(fetcher).toHaveBeenCalledOnce();
    expect(config.snapshot()).toEqual({ status: 'loaded', data: { productName: 'fetched' } });
  });

  it('loads the stores as before on a page the browser renders alone', async () => {
    const { browserFirstRender, createResource } = await modulesOnPage('<div id="root"></div>');
    expect(browserFirstRender()).toBeNull();
    const fetcher = vi.fn(() => Promise.resolve('account'));
    const account = createResource(fetcher, () => 'served');
    expect(account.snapshot()).toEqual({ status: 'loading' });
    account.subscribe(() => undefined);
    await new Promise((settled) => setTimeout(settled, 0));
    expect(fetcher).toHaveBeenCalledOnce();
    expect(account.snapshot()).toEqual({ status: 'loaded', data: 'account' });
  });
});
