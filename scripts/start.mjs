// One-command start: builds the web app and the API when their output is missing or older than
// their sources, then serves SPA + API on one port with embedded defaults.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const BUILD_OUTPUTS = new Set(['node_modules', 'dist', 'dist-server']);

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(target)) {
    if (BUILD_OUTPUTS.has(entry)) continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

function buildIfStale(workspace, outputs, sources) {
  const built = Math.min(...outputs.map((output) => newestMtime(path.join(root, output))));
  const changed = Math.max(...sources.map((s) => newestMtime(path.join(root, s))));
  if (built > 0 && built >= changed) return;
  console.log(`Building ${workspace}…`);
  const result = spawnSync('npm', ['run', 'build', '-w', workspace], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// The browser's build and the server render's (decision 026) are made together.
buildIfStale(
  '@portal/web',
  ['apps/web/dist/index.html', 'apps/web/dist-server/entry-server.js'],
  ['apps/web', 'packages/contracts'],
);
buildIfStale('@portal/api', ['apps/api/dist/server.js'], ['apps/api/src', 'packages/contracts']);

await import(path.join(root, 'apps/api/dist/server.js'));
