import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * The server's folders depend on each other one way only (docs/architecture.md): shared code
 * (db, mail, auth, regions), then the plugins, then the modules, each module on the ones below it.
 * app.ts and server.ts at the root put them together, and config.ts and errors.ts there are
 * shared by all, so root files belong to no folder here.
 */

const SOURCE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');
const RELATIVE_IMPORT = /(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return entry.name.endsWith('.ts') ? [file] : [];
  });
}

/** `modules/<name>` for a module's files, the top folder for the others, undefined for root files. */
function folderOf(file: string): string | undefined {
  const [top, module, ...rest] = path.relative(SOURCE_ROOT, file).split(path.sep);
  if (module === undefined) return undefined;
  return top === 'modules' && rest.length > 0 ? `modules/${module}` : top;
}

/** For each folder, the folders its files import. */
function folderImports(): Map<string, Set<string>> {
  const imports = new Map<string, Set<string>>();
  for (const file of sourceFiles(SOURCE_ROOT)) {
    const from = folderOf(file);
    if (!from) continue;
    for (const [, specifier] of fs.readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) {
      const to = folderOf(path.resolve(path.dirname(file), specifier!));
      if (to && to !== from) imports.set(from, (imports.get(from) ?? new Set()).add(to));
    }
  }
  return imports;
}

function reachableFrom(start: string, imports: Map<string, Set<string>>): Set<string> {
  const reached = new Set<string>();
  const pending = [start];
  for (let folder = pending.pop(); folder !== undefined; folder = pending.pop()) {
    for (const next of imports.get(folder) ?? []) {
      if (!reached.has(next)) pending.push(next);
      reached.add(next);
    }
  }
  return reached;
}

describe('the API source folders', () => {
  it('import each other one way only: no folder reaches back to one that imports it', () => {
    const imports = folderImports();
    expect(imports.get('modules/applications')).toContain('plugins');
    const cycles = [...imports.keys()].flatMap((folder) => {
      const reached = reachableFrom(folder, imports);
      return [...reached]
        .filter((other) => other > folder && reachableFrom(other, imports).has(folder))
        .map((other) => `${folder} <-> ${other}`);
    });
    expect(cycles).toEqual([]);
  });

  // A route calls its module's service; only services reach repositories (the server layers).
  it('have no route file that imports a repository', () => {
    const routeFiles = sourceFiles(SOURCE_ROOT).filter((file) => file.endsWith('.routes.ts'));
    expect(routeFiles.length).toBeGreaterThan(10);
    const reachingRepositories = routeFiles.flatMap((file) =>
      [...fs.readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)]
        .filter(([, specifier]) => specifier!.endsWith('.repository.ts'))
        .map(([, specifier]) => `${path.relative(SOURCE_ROOT, file)} imports ${specifier}`),
    );
    expect(reachingRepositories).toEqual([]);
  });
});
