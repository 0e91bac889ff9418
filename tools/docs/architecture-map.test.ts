import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const architecture = fs.readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');

/** The folders directly below a directory of the repo. */
function foldersBelow(directory: string): string[] {
  return fs
    .readdirSync(path.join(root, directory), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
}

/** Code spans of the map (`…`), where it names folders, files and identifiers. */
const codeSpans = [...architecture.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!);

/** The map names a folder when a code span is its name or a path through it. */
function namesFolder(parent: string, folder: string): boolean {
  return codeSpans.some(
    (span) =>
      span === folder ||
      span === `${folder}/` ||
      span.includes(`${parent}/${folder}/`) ||
      span.endsWith(`${parent}/${folder}`),
  );
}

// The map is what a new engineer reads first: a module or feature it does not name is one they
// find only by reading the code.
describe('docs/architecture.md', () => {
  for (const [directory, parent] of [
    ['apps/api/src/modules', 'modules'],
    ['apps/web/src/features', 'features'],
  ] as const) {
    it(`names every folder under ${directory}`, () => {
      const unnamed = foldersBelow(directory).filter((folder) => !namesFolder(parent, folder));
      expect(unnamed, `add these to docs/architecture.md as \`${parent}/<name>/\``).toEqual([]);
    });
  }
});
