import path from 'node:path';

/**
 * The web app's layers and what each may import (issue 11, docs/architecture.md):
 * - app/ (routes, shells, router) may import anything;
 * - a feature may import its own files and the shared layers, never another feature: what two
 *   features share moves to api/, components/ or lib/;
 * - api/ (request modules shared by features) imports lib/ only;
 * - components/ imports components/, lib/ and the wording; lib/ imports lib/ and the wording.
 * Only relative imports are checked: the web app reaches its own files by relative paths.
 */
const MAY_IMPORT = {
  features: ['api', 'components', 'lib', 'locales'],
  api: ['api', 'lib'],
  components: ['components', 'lib', 'locales'],
  lib: ['lib', 'locales'],
  locales: ['locales'],
};

/** The layer (and for a feature, its name) of a file under the web app's src/, or null outside it. */
export function layerOf(srcDir, file) {
  const relative = path.relative(srcDir, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return null;
  const [top, second] = relative.split(path.sep);
  return top === 'features' ? { layer: 'features', feature: second } : { layer: top };
}

/** Why an import from one file to another crosses a boundary, or null when it may. */
export function boundaryViolation(srcDir, importer, imported) {
  const from = layerOf(srcDir, importer);
  const to = layerOf(srcDir, imported);
  if (!from || !to) return null;
  const allowed = MAY_IMPORT[from.layer];
  if (!allowed) return null;
  if (from.layer === 'features' && to.layer === 'features') {
    return from.feature === to.feature
      ? null
      : `the feature "${from.feature}" imports the feature "${to.feature}"; move what they share to api/, components/ or lib/`;
  }
  return allowed.includes(to.layer) ? null : `${from.layer}/ may not import ${to.layer}/`;
}

/** An ESLint plugin with the rule `web-boundaries/layers`, given the web app's src/ directory. */
export function webBoundaries(srcDir) {
  const layers = {
    meta: {
      type: 'problem',
      docs: { description: "Keeps the web app's features, shared modules and libraries apart." },
      schema: [],
    },
    create(context) {
      const check = (node) => {
        const source = node.source;
        if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
        if (!source.value.startsWith('.')) return;
        const imported = path.resolve(path.dirname(context.filename), source.value);
        const violation = boundaryViolation(srcDir, context.filename, imported);
        if (violation) context.report({ node: source, message: `Crosses a web boundary: ${violation}.` });
      };
      return {
        ImportDeclaration: check,
        ImportExpression: check,
        ExportNamedDeclaration: check,
        ExportAllDeclaration: check,
      };
    },
  };
  return { rules: { layers } };
}
