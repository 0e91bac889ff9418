// `npm run size`: the JavaScript each page loads before it is interactive, gzip-compressed, against
// its budget. Read from the build manifest (deterministic, no browser, no timing): the entry's
// static imports, plus each route chunk the page opens and their static imports. Dynamic imports
// inside those (the password meter, dialogs opened later) are not counted: they load on demand.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const webRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The web build to measure: apps/web/dist, or the directory given as the first argument.
const dist = path.resolve(process.argv[2] ?? path.join(webRoot, 'dist'));
const manifestFile = path.join(dist, '.vite/manifest.json');
if (!fs.existsSync(manifestFile)) {
  console.error(`size: ${path.relative(process.cwd(), manifestFile)} is missing; run npm run build first`);
  process.exit(1);
}
const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));

/** Budgets in kB (1,000 bytes) of gzip JavaScript, and the route modules each page opens. */
const BUDGETS = [
  { page: '/login', routes: ['src/app/routes/login.tsx'], budgetKb: 110 },
  { page: '/signup', routes: ['src/app/routes/signup.tsx'], budgetKb: 130 },
  { page: '/apps/asc', routes: ['src/app/routes/app-layout.tsx', 'src/app/routes/apps.tsx'], budgetKb: 200 },
];

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);

/** The chunk holding each of the app's modules (written by the build, see vite.config.ts). */
const moduleChunks = JSON.parse(fs.readFileSync(path.join(dist, '.vite/module-chunks.json'), 'utf8'));
const manifestKeyOfFile = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, key]));

/** The manifest entry of the chunk that holds a source module. */
function manifestKeyOf(module) {
  if (manifest[module]) return module;
  const key = manifestKeyOfFile.get(moduleChunks[module]);
  if (!key) throw new Error(`size: ${module} is in no chunk of the build`);
  return key;
}

/** Every chunk a module needs before it runs: its own, and their static imports, transitively. */
function staticClosure(keys, into = new Set()) {
  for (const key of keys) {
    if (into.has(key)) continue;
    into.add(key);
    staticClosure(manifest[key].imports ?? [], into);
  }
  return into;
}

const gzipBytes = new Map();
function gzipSize(file) {
  if (!gzipBytes.has(file))
    gzipBytes.set(file, zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length);
  return gzipBytes.get(file);
}

let over = 0;
const rows = BUDGETS.map(({ page, routes, budgetKb }) => {
  const chunks = [...staticClosure([entryKey, ...routes.map(manifestKeyOf)])].map(
    (key) => manifest[key].file,
  );
  const bytes = chunks.reduce((sum, file) => sum + gzipSize(file), 0);
  const kb = bytes / 1000;
  if (kb > budgetKb) over += 1;
  return { page, requests: chunks.length, kb, budgetKb };
});

for (const { page, requests, kb, budgetKb } of rows) {
  const verdict = kb <= budgetKb ? 'ok' : 'OVER';
  console.log(
    `${page.padEnd(10)} ${kb.toFixed(1).padStart(6)} kB gzip in ${String(requests).padStart(2)} scripts  (budget ${budgetKb} kB)  ${verdict}`,
  );
}
if (over > 0) {
  console.error(`size: ${over} page(s) over budget`);
  process.exit(1);
}
