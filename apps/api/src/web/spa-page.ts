import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The route module of the signed-in frame, whose chunk every signed-in page needs. */
const SIGNED_IN_FRAME_MODULE = 'src/app/routes/app-layout.tsx';

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
  isEntry?: boolean;
}

/** A page's HTML with its brotli and gzip copies, made once when the server starts. */
export interface PageVariant {
  html: string;
  br: Buffer;
  gzip: Buffer;
}

function readJson<T>(file: string): T | undefined {
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as T) : undefined;
}

function closure(
  manifest: Record<string, ManifestChunk>,
  keys: readonly string[],
  into = new Set<string>(),
): Set<string> {
  for (const key of keys) {
    if (into.has(key) || !manifest[key]) continue;
    into.add(key);
    closure(manifest, manifest[key].imports ?? [], into);
  }
  return into;
}

/** The files every signed-in page needs beyond the first page's own: the signed-in frame's chunks. */
export interface SignedInFrameFiles {
  scripts: string[];
  stylesheets: string[];
}

/** Which files those are, from the build's manifest; undefined when the build does not say. */
export function signedInFrameFiles(webDist: string): SignedInFrameFiles | undefined {
  const manifest = readJson<Record<string, ManifestChunk>>(path.join(webDist, '.vite/manifest.json'));
  const moduleChunks = readJson<Record<string, string>>(path.join(webDist, '.vite/module-chunks.json'));
  const frameFile = moduleChunks?.[SIGNED_IN_FRAME_MODULE];
  if (!manifest || !frameFile) return undefined;
  const keyOf = (file: string) => Object.keys(manifest).find((key) => manifest[key]?.file === file);
  const frameKey = keyOf(frameFile);
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!frameKey || !entryKey) return undefined;

  const loadedFirst = closure(manifest, [entryKey]);
  const frameChunks = [...closure(manifest, [frameKey])]
    .filter((key) => !loadedFirst.has(key))
    .map((key) => manifest[key]!);
  return {
    scripts: frameChunks.map((chunk) => `/${chunk.file}`),
    stylesheets: frameChunks.flatMap((chunk) => (chunk.css ?? []).map((css) => `/${css}`)),
  };
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
 * The SPA page for a browser that holds a session: the same index.html, plus preloads of the
 * signed-in frame's scripts and stylesheet. Without them the browser learns of those files only
 * once the first scripts have run and the account has loaded: a second round trip before any
 * signed-in page shows (decision 012). Undefined when the build does not say which files those are.
 */
export function signedInPageVariant(webDist: string): PageVariant | undefined {
  const files = signedInFrameFiles(webDist);
  if (!files) return undefined;
  const links = [
    ...files.scripts.map((href) => `<link rel="modulepreload" crossorigin href="${href}">`),
    ...files.stylesheets.map((href) => `<link rel="preload" as="style" crossorigin href="${href}">`),
  ];
  const index = fs.readFileSync(path.join(webDist, 'index.html'), 'utf8');
  return pageVariant(index.replace('</head>', `${links.join('\n    ')}\n  </head>`));
}

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
