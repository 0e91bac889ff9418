import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { PAGE_MANIFEST_FILE, pageManifestSchema, type PageManifest } from '@portal/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A page's HTML with its brotli and gzip copies, made once when the server starts. */
export interface PageVariant {
  html: string;
  br: Buffer;
  gzip: Buffer;
}

/**
 * The page manifest the web build wrote beside its pages (decision 038), or undefined when the build
 * has none (a build that predates it, or a test's build of a bare index.html): its pages then go out
 * as index.html holds them. A manifest that does not read as the contract says stops the server from
 * starting: it comes from a build of another release, and the server would otherwise send its pages
 * without what makes them paint first (decisions 012 and 026) and without a word.
 */
export function readPageManifest(webDist: string): PageManifest | undefined {
  const file = path.join(webDist, PAGE_MANIFEST_FILE);
  if (!fs.existsSync(file)) return undefined;
  let content: unknown;
  try {
    content = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file} is not JSON: rebuild the web app (npm run build)`, { cause: error });
  }
  const manifest = pageManifestSchema.safeParse(content);
  if (!manifest.success)
    throw new Error(`${file} is not this release's page manifest: rebuild the web app (npm run build)`, {
      cause: manifest.error,
    });
  return manifest.data;
}

/** A page's HTML with its brotli and gzip copies. */
function pageVariant(html: string): PageVariant {
  return {
    html,
    br: zlib.brotliCompressSync(html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
    gzip: zlib.gzipSync(html, { level: 9 }),
  };
}

/**
 * The SPA page for a browser that holds a session: index.html plus preloads of the signed-in
 * frame's scripts and stylesheet. Without them the browser learns of those files only once the
 * first scripts have run and the account has loaded: a second round trip before any signed-in page
 * shows (decision 012).
 */
export const signedInPageVariant = (manifest: PageManifest): PageVariant =>
  pageVariant(manifest.signedInPage);

/** The encoding the browser accepts that pages go out in: brotli, then gzip, else none. */
function pageEncoding(request: FastifyRequest): 'br' | 'gzip' | undefined {
  const accepted = String(request.headers['accept-encoding'] ?? '');
  if (/\bbr\b/.test(accepted)) return 'br';
  if (/\bgzip\b/.test(accepted)) return 'gzip';
  return undefined;
}

function sendHtml(reply: FastifyReply, encoding: 'br' | 'gzip' | undefined, body: string | Buffer) {
  reply.header('content-type', 'text/html; charset=utf-8').header('vary', 'Accept-Encoding, Cookie');
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(body);
}

/** Sends a page variant in the encoding the browser accepts best (brotli, then gzip). */
export function sendPageVariant(request: FastifyRequest, reply: FastifyReply, page: PageVariant) {
  const encoding = pageEncoding(request);
  return sendHtml(reply, encoding, encoding ? page[encoding] : page.html);
}

/**
 * Sends a page made for this request, compressed as it goes out at levels that cost about a
 * millisecond for a page (the routes' own compression does not reach pages, which are no route).
 */
export function sendRenderedPage(request: FastifyRequest, reply: FastifyReply, html: string) {
  const encoding = pageEncoding(request);
  if (encoding === 'br')
    return sendHtml(
      reply,
      encoding,
      zlib.brotliCompressSync(html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }),
    );
  if (encoding === 'gzip') return sendHtml(reply, encoding, zlib.gzipSync(html, { level: 6 }));
  return sendHtml(reply, encoding, html);
}
