import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { PAGE_MANIFEST_FILE, type PageManifest, type RenderedPageShell } from '@portal/contracts';
import { serverRenderDir } from '../src/web/server-render.ts';
import { setUpOrganization, useTestApp } from './helper.ts';

/*
 * A built web app with a server render beside it (decision 026) and the page manifest the web
 * build writes (decision 038; apps/web/vite-plugins/page-manifest.ts cuts the real one from the
 * built page). The server render stands in for apps/web/src/entry-server.tsx (whose own render
 * apps/web/src/entry-server.test.tsx tests): it renders what the portal's API answered it, with
 * text a string replacement would mangle, and fails or declines the way the real one can.
 */
const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-server-render-'));
const INDEX = [
  '<!doctype html><html><head><title>Developer Portal</title>',
  '<script type="module" crossorigin src="/assets/index-e1.js"></script>',
  '<link rel="preload" href="/api/v1/accounts/me" as="fetch" crossorigin="anonymous">',
  '</head><body><div id="root"></div></body></html>',
].join('\n');
/** The head's requests for the page's scripts, as the page manifest writes them (decision 045). */
const scripts = (chunks: string[]) =>
  [
    '<script type="module" crossorigin src="/assets/index-e1.js"></script>',
    ...chunks.map((href) => `<link rel="modulepreload" crossorigin href="${href}">`),
  ].join('\n');
const shell = (head: string): RenderedPageShell => ({
  beforeTitle: '<!doctype html><html><head><title>',
  beforeContent: `</title>\n${head}\n</head><body><div id="root">`,
  beforeData: '</div>',
  afterData: '</body></html>',
});
const MANIFEST: PageManifest = {
  version: 1,
  renderedPage: {
    signedOut: shell(scripts(['/assets/react-r1.js'])),
    signedIn: shell(
      `${scripts(['/assets/react-r1.js', '/assets/signed-in-s1.js'])}<style>body{}</style><link rel="stylesheet" crossorigin href="/assets/signed-in-s1.css" disabled>`,
    ),
  },
  signedInPage: INDEX.replace(
    '</head>',
    '<link rel="modulepreload" crossorigin href="/assets/signed-in-s1.js"></head>',
  ),
};
const SERVER_ENTRY = `
export const isServerRendered = (pathname) => pathname === '/login' || pathname.startsWith('/apps/');
export async function renderPage(url, load) {
  globalThis.serverRenders = (globalThis.serverRenders ?? 0) + 1;
  const [me, config] = await Promise.all([load('/api/v1/accounts/me'), load('/api/v1/config')]);
  if (url.startsWith('/apps/failing')) throw new Error('the render failed');
  const signedIn = me.status === 200;
  if (url.startsWith('/apps/') !== signedIn) return undefined;
  const who = signedIn ? me.body.email : 'a visitor';
  return {
    html: '<h1>Hello ' + who + " $& $' $$ of " + config.body.productName + '</h1>',
    dataScript: '<script type="application/json" id="portal-first-render">{"url":"' + url + '"}</script>',
    title: 'Sign in & <more> | Developer Portal',
    signedIn,
  };
}
`;
const files: Record<string, string> = {
  'index.html': INDEX,
  'assets/index-e1.js': 'export {};',
  'assets/signed-in-s1.js': 'export {};',
  'assets/signed-in-s1.css': 'body{}',
  [PAGE_MANIFEST_FILE]: JSON.stringify(MANIFEST),
};
for (const [name, content] of Object.entries(files)) {
  const file = path.join(webDist, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}
fs.mkdirSync(serverRenderDir(webDist));
fs.writeFileSync(path.join(serverRenderDir(webDist), 'entry-server.js'), SERVER_ENTRY);

const t = useTestApp({ WEB_DIST_DIR: webDist });
const RENDERS_PER_SECOND = 3;
const budgeted = useTestApp({ WEB_DIST_DIR: webDist, SERVER_RENDERS_PER_SECOND: String(RENDERS_PER_SECOND) });
const turnedOff = useTestApp({ WEB_DIST_DIR: webDist, SERVER_RENDERS_PER_SECOND: '0' });

/** How many pages the server render has rendered in this file so far. */
const rendersSoFar = () => (globalThis as { serverRenders?: number }).serverRenders ?? 0;
const isRendered = (page: { body: string }) => page.body.includes('portal-first-render');
afterAll(() => {
  fs.rmSync(webDist, { recursive: true, force: true });
  fs.rmSync(serverRenderDir(webDist), { recursive: true, force: true });
});

const get = (url: string, cookie?: string, acceptEncoding = 'identity') =>
  t.app.inject({
    method: 'GET',
    url,
    headers: { 'accept-encoding': acceptEncoding, ...(cookie ? { cookie } : {}) },
  });

describe('a server-rendered page', () => {
  it("holds the render in #root, its data after it and its title in the head of the manifest's shell, with nothing mangled", async () => {
    const page = await get('/login?redirect=%2Fapps%2Fasc');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toBe(
      '<!doctype html><html><head><title>Sign in &#38; &#60;more&#62; | Developer Portal</title>\n' +
        `${scripts(['/assets/react-r1.js'])}\n</head><body>` +
        `<div id="root"><h1>Hello a visitor $& $' $$ of Social</h1></div>` +
        '<script type="application/json" id="portal-first-render">{"url":"/login?redirect=%2Fapps%2Fasc"}</script>' +
        '</body></html>',
    );
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(String(page.headers.vary)).toMatch(/cookie/i);
  });

  it("renders a signed-in page with the member's own answers, which no cache may keep", async () => {
    const owner = await setUpOrganization(t.app, 'rendered@acme.io');
    const page = await get('/apps/asc', owner);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1>Hello rendered@acme.io');
    expect(page.headers['cache-control']).toBe('private, no-store');
    expect(String(page.headers.vary)).toMatch(/cookie/i);
    // In the signed-in shell: the one naming the frame's scripts and holding its stylesheet.
    expect(page.body).toContain(MANIFEST.renderedPage.signedIn.beforeContent + '<h1>Hello rendered@acme.io');
  });

  it('goes out compressed as the browser accepts', async () => {
    const plain = await get('/login');
    const brotli = await get('/login', undefined, 'br, gzip');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(brotli.rawPayload).toString()).toBe(plain.body);
    const gzip = await get('/login', undefined, 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
  });

  it('leaves to the browser a page the render declines, fails or does not render, and a HEAD', async () => {
    const owner = await setUpOrganization(t.app, 'declined@acme.io');
    const plainPages = [
      await get('/apps/asc'), // signed out: the guard would redirect
      await get('/login', owner), // signed in: likewise
      await get('/apps/failing', owner),
      await get('/billing/asc', owner),
      await t.app.inject({ method: 'HEAD', url: '/login' }),
    ];
    for (const page of plainPages) {
      expect(page.statusCode).toBe(200);
      expect(page.headers['cache-control']).toBe('no-cache');
    }
    for (const page of plainPages.slice(0, 4)) {
      expect(page.body).toContain('<div id="root"></div>');
      expect(page.body).toContain('<script type="module" crossorigin src="/assets/index-e1.js"></script>');
      expect(page.body).not.toContain('portal-first-render');
    }
  });

  it('sends a signed-out page again as rendered for a while, and renders every signed-in page', async () => {
    const before = rendersSoFar();
    const first = await get('/login?kept=1');
    const again = await get('/login?kept=1');
    expect(again.body).toBe(first.body);
    expect(again.headers['cache-control']).toBe('no-cache');
    expect(rendersSoFar()).toBe(before + 1);

    await get('/login?kept=2');
    expect(rendersSoFar()).toBe(before + 2);

    const owner = await setUpOrganization(t.app, 'always-rendered@acme.io');
    const signedIn = [await get('/apps/asc', owner), await get('/apps/asc', owner)];
    expect(signedIn.every(isRendered)).toBe(true);
    expect(rendersSoFar()).toBe(before + 4);
  });

  it('sends pages unrendered past its renders per second, and none rendered when that is 0', async () => {
    const owner = await setUpOrganization(budgeted.app, 'budgeted@acme.io');
    const pages = [];
    for (let request = 0; request < 10; request += 1)
      pages.push(await budgeted.app.inject({ method: 'GET', url: '/apps/asc', headers: { cookie: owner } }));
    expect(pages.every((page) => page.statusCode === 200)).toBe(true);
    // Ten requests in well under two seconds fall in at most two of the budget's one-second windows.
    const rendered = pages.filter(isRendered).length;
    expect(rendered).toBeGreaterThanOrEqual(RENDERS_PER_SECOND);
    expect(rendered).toBeLessThanOrEqual(2 * RENDERS_PER_SECOND);
    for (const page of pages.filter((page) => !isRendered(page)))
      expect(page.body).toContain('<script type="module" crossorigin src="/assets/index-e1.js"></script>');

    const before = rendersSoFar();
    const plain = await turnedOff.app.inject({ method: 'GET', url: '/login' });
    expect(plain.statusCode).toBe(200);
    expect(isRendered(plain)).toBe(false);
    expect(rendersSoFar()).toBe(before);
  });

  it('still answers 404 for API paths and missing build files', async () => {
    expect((await get('/api/v1/nothing-here')).statusCode).toBe(404);
    expect((await get('/assets/gone-123.js')).statusCode).toBe(404);
  });
});
