import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { COMPRESSION_THRESHOLD_BYTES } from '../src/app.ts';
import { jsonRequest, setUpOrganization, useTestApp } from './helper.ts';

/*
 * A built SPA as the web build leaves it: each text asset with .br and .gz copies beside it
 * (apps/web/scripts/precompress.mjs). The server must send the copy the browser accepts.
 */
const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-web-dist-'));
const SCRIPT = `export const portal = "${'compressible '.repeat(400)}";\n`;
const INDEX = `<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body>${'<!-- page -->'.repeat(200)}</body></html>`;
for (const [name, content] of [
  ['assets/index-abc123.js', SCRIPT],
  ['index.html', INDEX],
] as const) {
  const file = path.join(webDist, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(content));
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content));
}

const t = useTestApp({ WEB_DIST_DIR: webDist });
afterAll(() => fs.rmSync(webDist, { recursive: true, force: true }));

function get(url: string, acceptEncoding?: string, cookie?: string) {
  return t.app.inject({
    method: 'GET',
    url,
    headers: {
      ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
      ...(cookie ? { cookie } : {}),
    },
  });
}

describe('built assets', () => {
  it('sends the brotli copy to a browser that accepts it, gzip to one that takes only gzip, and varies on it', async () => {
    const brotli = await get('/assets/index-abc123.js', 'gzip, deflate, br');
    expect(brotli.statusCode).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(String(brotli.headers.vary)).toMatch(/accept-encoding/i);
    expect(brotli.headers['cache-control']).toContain('immutable');
    expect(zlib.brotliDecompressSync(brotli.rawPayload).toString()).toBe(SCRIPT);
    expect(brotli.rawPayload.length).toBeLessThan(SCRIPT.length / 4);

    const gzip = await get('/assets/index-abc123.js', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(SCRIPT);

    const plain = await get('/assets/index-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it('answers 404 for a build file that does not exist, not the SPA page', async () => {
    const missing = await get('/assets/signup-gone123.js', 'br');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('sends the page itself compressed on every SPA route, never cached', async () => {
    for (const url of ['/', '/login', '/apps/asc']) {
      const page = await get(url, 'br');
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-encoding'], url).toBe('br');
      expect(page.headers['cache-control'], url).toBe('no-cache');
      expect(zlib.brotliDecompressSync(page.rawPayload).toString(), url).toBe(INDEX);
    }
  });
});

describe('API answers', () => {
  it(`compresses answers larger than ${COMPRESSION_THRESHOLD_BYTES} bytes and leaves small ones alone`, async () => {
    const countries = await get('/api/v1/utils/countries', 'br, gzip');
    expect(countries.statusCode).toBe(200);
    expect(countries.headers['content-encoding']).toBe('br');
    const decoded = JSON.parse(zlib.brotliDecompressSync(countries.rawPayload).toString()) as unknown[];
    expect(decoded.length).toBeGreaterThan(200);
    expect(JSON.stringify(decoded).length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);

    const owner = await setUpOrganization(t.app, 'compressed@acme.io');
    const me = await t.app.inject({
      ...jsonRequest('GET', '/api/v1/accounts/me', undefined, owner),
      headers: { cookie: owner, 'accept-encoding': 'br, gzip' },
    });
    expect(me.statusCode).toBe(200);
    expect(me.rawPayload.length).toBeLessThan(COMPRESSION_THRESHOLD_BYTES);
    expect(me.headers['content-encoding']).toBeUndefined();
  });
});
