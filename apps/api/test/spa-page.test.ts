import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE_NAME } from '../src/auth/auth.ts';
import { useTestApp } from './helper.ts';

/*
 * A built SPA with the files the build writes about its chunks: the manifest, and which chunk
 * holds each module (apps/web/vite.config.ts). The signed-in frame's chunk imports a shared chunk
 * and one the first page loads already.
 */
const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-spa-page-'));
const INDEX = '<!doctype html><html><head><script type="module" src="/assets/index-e1.js"></script>\n  </head><body></body></html>';
const files: Record<string, string> = {
  'index.html': INDEX,
  'assets/index-e1.js': 'export {};',
  'assets/react-r1.js': 'export {};',
  'assets/signed-in-s1.js': 'export {};',
  'assets/shared-m1.js': 'export {};',
  'assets/signed-in-s1.css': 'body{}',
  '.vite/manifest.json': JSON.stringify({
    'index.html': { file: 'assets/index-e1.js', isEntry: true, imports: ['_react-r1.js'] },
    '_react-r1.js': { file: 'assets/react-r1.js' },
    '_signed-in-s1.js': { file: 'assets/signed-in-s1.js', imports: ['_react-r1.js', '_shared-m1.js'], css: ['assets/signed-in-s1.css'] },
    '_shared-m1.js': { file: 'assets/shared-m1.js' },
  }),
  '.vite/module-chunks.json': JSON.stringify({ 'src/app/routes/app-layout.tsx': 'assets/signed-in-s1.js' }),
};
for (const [name, content] of Object.entries(files)) {
  const file = path.join(webDist, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

const t = useTestApp({ WEB_DIST_DIR: webDist });
afterAll(() => fs.rmSync(webDist, { recursive: true, force: true }));

const page = (cookie?: string, acceptEncoding = 'br, gzip') =>
  t.app.inject({ method: 'GET', url: '/apps/asc', headers: { 'accept-encoding': acceptEncoding, ...(cookie ? { cookie } : {}) } });

describe('the SPA page', () => {
  it('preloads the signed-in frame for a browser holding a session, compressed as the browser accepts', async () => {
    const signedIn = await page(`theme=light; ${SESSION_COOKIE_NAME}=abc.def`);
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.headers['content-encoding']).toBe('br');
    expect(String(signedIn.headers.vary)).toMatch(/cookie/i);
    const html = zlib.brotliDecompressSync(signedIn.rawPayload).toString();
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/signed-in-s1.js">');
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/shared-m1.js">');
    expect(html).toContain('<link rel="preload" as="style" crossorigin href="/assets/signed-in-s1.css">');
    // Already loaded by the first page's own script: not named twice.
    expect(html).not.toContain('href="/assets/react-r1.js"');

    const gzip = await page(`${SESSION_COOKIE_NAME}=abc.def`, 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(html);
  });

  it('sends the plain page to a browser without a session', async () => {
    const visitor = await page(undefined, 'identity');
    expect(visitor.statusCode).toBe(200);
    expect(visitor.body).toBe(INDEX);
    expect(String(visitor.headers.vary)).toMatch(/cookie/i);
  });
});
