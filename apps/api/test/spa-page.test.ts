import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { PAGE_MANIFEST_FILE, type PageManifest } from '@portal/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { SESSION_COOKIE_NAME } from '../src/auth/auth.ts';
import { openDatabase } from '../src/db/client.ts';
import { readPageManifest } from '../src/web/spa-page.ts';
import { testConfig } from './fixtures.ts';
import { useTestApp } from './helper.ts';

/*
 * A built SPA: its index.html and, where the build wrote one, the page manifest (decision 038),
 * whose page for a browser holding a session preloads the signed-in frame's files.
 */
const builds: string[] = [];
function webBuild(files: Record<string, string>): string {
  const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-spa-page-'));
  builds.push(webDist);
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(webDist, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
  return webDist;
}
afterAll(() => builds.forEach((webDist) => fs.rmSync(webDist, { recursive: true, force: true })));

const INDEX =
  '<!doctype html><html><head><script type="module" src="/assets/index-e1.js"></script>\n  </head><body></body></html>';
const SIGNED_IN_PAGE = INDEX.replace(
  '</head>',
  '<link rel="modulepreload" crossorigin href="/assets/signed-in-s1.js"></head>',
);
const shell = {
  beforeTitle: '<title>',
  beforeContent: '</title><div id="root" inert>',
  beforeData: '</div>',
  afterData: '</html>',
};
const MANIFEST: PageManifest = {
  version: 1,
  renderedPage: { signedOut: shell, signedIn: shell },
  signedInPage: SIGNED_IN_PAGE,
};

const t = useTestApp({
  WEB_DIST_DIR: webBuild({ 'index.html': INDEX, [PAGE_MANIFEST_FILE]: JSON.stringify(MANIFEST) }),
});
const withoutManifest = useTestApp({ WEB_DIST_DIR: webBuild({ 'index.html': INDEX }) });

const signedIn = `theme=light; ${SESSION_COOKIE_NAME}=abc.def`;
const page = (app = t.app, cookie?: string, acceptEncoding = 'br, gzip') =>
  app.inject({
    method: 'GET',
    url: '/apps/asc',
    headers: { 'accept-encoding': acceptEncoding, ...(cookie ? { cookie } : {}) },
  });

describe('the SPA page', () => {
  it("sends a browser holding a session the manifest's signed-in page, compressed as the browser accepts", async () => {
    const brotli = await page(t.app, signedIn);
    expect(brotli.statusCode).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(String(brotli.headers.vary)).toMatch(/cookie/i);
    expect(zlib.brotliDecompressSync(brotli.rawPayload).toString()).toBe(SIGNED_IN_PAGE);

    const gzip = await page(t.app, signedIn, 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(SIGNED_IN_PAGE);
  });

  it('sends the plain page to a browser without a session', async () => {
    const visitor = await page(t.app, undefined, 'identity');
    expect(visitor.statusCode).toBe(200);
    expect(visitor.body).toBe(INDEX);
    expect(String(visitor.headers.vary)).toMatch(/cookie/i);
  });

  it('sends the plain page to everyone when the build wrote no page manifest', async () => {
    for (const cookie of [signedIn, undefined]) {
      const plain = await page(withoutManifest.app, cookie, 'identity');
      expect(plain.statusCode).toBe(200);
      expect(plain.body).toBe(INDEX);
    }
  });

  it('refuses a page manifest that is not this release’s, and keeps the server from starting on one', async () => {
    const malformed = [
      '{"version": 1, "renderedPage": ',
      JSON.stringify({ ...MANIFEST, version: 2 }),
      JSON.stringify({ ...MANIFEST, renderedPage: { signedOut: shell } }),
      JSON.stringify({ ...MANIFEST, signedInPage: '' }),
    ];
    const refusal = /page-manifest\.json is not (JSON|this release's page manifest)/;
    const builds = malformed.map((manifest) =>
      webBuild({ 'index.html': INDEX, [PAGE_MANIFEST_FILE]: manifest }),
    );
    for (const webDist of builds) expect(() => readPageManifest(webDist)).toThrow(refusal);

    const database = await openDatabase({ databaseUrl: undefined, dataDir: 'memory://' });
    try {
      const config = testConfig(webBuild({}), { WEB_DIST_DIR: builds[1]! });
      await expect(buildApp({ config, database })).rejects.toThrow(refusal);
    } finally {
      await database.close();
    }
    // Building the app runs the migrations on a fresh database: more than the default on a busy machine.
  }, 120_000);
});
