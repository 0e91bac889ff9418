import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

// Third-party packages stay external (installed in node_modules); the workspace's own TypeScript
// packages (@portal/*) are bundled, since Node cannot import their .ts sources.
const readPackage = (relative) => JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8'));
const packages = [
  readPackage('./package.json'),
  readPackage('../region/package.json'),
  readPackage('../card-sandbox/package.json'),
  readPackage('../../packages/contracts/package.json'),
];
const external = [
  ...new Set(packages.flatMap((pkg) => Object.keys(pkg.dependencies ?? {})).filter((name) => !name.startsWith('@portal/'))),
];

await build({
  entryPoints: { server: 'src/server.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external: [...external, ...external.map((name) => `${name}/*`)],
  logLevel: 'warning',
});
