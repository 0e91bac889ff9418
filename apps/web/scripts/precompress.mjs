// Writes a brotli (.br) and a gzip (.gz) copy beside every text asset of the build, at the highest
// levels: compressed once here, the server then sends them as they are (@fastify/static
// preCompressed), choosing by the request's Accept-Encoding. The build to compress is the
// directory given as the first argument, apps/web/dist by default (a benchmark builds elsewhere).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const dist = process.argv[2]
  ? path.resolve(process.argv[2])
  : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const TEXT_EXTENSIONS = new Set(['.js', '.css', '.html', '.svg', '.json', '.md', '.txt', '.map', '.webmanifest']);
// Below this a compressed copy saves less than the bytes of a request header.
const MIN_BYTES = 512;

function* files(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(file);
    else yield file;
  }
}

let written = 0;
for (const file of files(dist)) {
  if (!TEXT_EXTENSIONS.has(path.extname(file))) continue;
  const content = fs.readFileSync(file);
  if (content.length < MIN_BYTES) continue;
  const brotli = zlib.brotliCompressSync(content, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
    },
  });
  fs.writeFileSync(`${file}.br`, brotli);
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content, { level: zlib.constants.Z_BEST_COMPRESSION }));
  written += 1;
}
console.log(`precompress: brotli and gzip copies of ${written} files in ${path.relative(process.cwd(), dist)}`);
