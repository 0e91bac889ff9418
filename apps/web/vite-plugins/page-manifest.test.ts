import { pageManifestSchema, type PageManifest } from '@portal/contracts';
import type { Rolldown } from 'vite';
import { describe, expect, it } from 'vitest';
import { EAGER_COMPILE_HINT, pageManifest } from './page-manifest.ts';

/*
 * The plugin over a built page and bundle as Vite hands them over: the entry loads React, the
 * signed-in frame's chunk imports React and a chunk of its own, and has a stylesheet.
 */
const INDEX = [
  '<!doctype html><html><head><title>Developer Portal</title>',
  '<script type="module" crossorigin src="/assets/index-e1.js"></script>',
  '<link rel="modulepreload" crossorigin href="/assets/react-r1.js">',
  '<style>body{}</style>',
  '<link rel="preload" href="/api/v1/accounts/me" as="fetch" crossorigin="anonymous">',
  '<link rel="preload" href="/api/v1/config" as="fetch" crossorigin="anonymous">',
  '</head><body><div id="root"></div></body></html>',
].join('\n');

/** What Vite puts atop a chunk that imports others lazily, in its own generateBundle. */
const LAZY_DEPENDENCIES = 'const __vite__mapDeps=(i)=>i;\n';
const codeOf = (fileName: string) =>
  `${fileName.includes('index') ? LAZY_DEPENDENCIES : ''}/* ${fileName} */`;

const chunk = (fileName: string, imports: string[], moduleIds: string[] = [], css: string[] = []) => ({
  type: 'chunk',
  fileName,
  code: codeOf(fileName),
  isEntry: fileName.includes('index'),
  imports,
  moduleIds,
  viteMetadata: { importedCss: new Set(css), importedAssets: new Set() },
});

function build(index: string): { manifest: PageManifest; bundle: Rolldown.OutputBundle } {
  const bundle = {
    'index.html': { type: 'asset', fileName: 'index.html', source: index },
    'assets/index-e1.js': chunk('assets/index-e1.js', ['assets/react-r1.js']),
    'assets/react-r1.js': chunk('assets/react-r1.js', []),
    'assets/signed-in-s1.js': chunk(
      'assets/signed-in-s1.js',
      ['assets/react-r1.js', 'assets/shared-m1.js'],
      ['/web/src/app/routes/app-layout.tsx'],
      ['assets/signed-in-s1.css'],
    ),
    'assets/signed-in-s1.css': { type: 'asset', fileName: 'assets/signed-in-s1.css', source: '.frame{}' },
    'assets/shared-m1.js': chunk('assets/shared-m1.js', []),
    'assets/billing-b1.js': chunk('assets/billing-b1.js', ['assets/react-r1.js']),
  } as unknown as Rolldown.OutputBundle;
  const plugin = pageManifest({
    webRoot: '/web',
    signedInFrame: 'src/app/routes/app-layout.tsx',
    firstRequests: ['/api/v1/accounts/me', '/api/v1/config'],
  });
  const emitted: string[] = [];
  const context = {
    emitFile: (file: { source: string }) => emitted.push(file.source),
    error: (message: string) => {
      throw new Error(message);
    },
  };
  const { order, handler } = plugin.generateBundle as {
    order: string;
    handler: (this: unknown, options: unknown, bundle: Rolldown.OutputBundle) => void;
  };
  // After Vite's own generateBundle, which puts its table of lazy dependencies atop the chunks.
  expect(order).toBe('post');
  handler.call(context, {}, bundle);
  return { manifest: pageManifestSchema.parse(JSON.parse(emitted[0]!)), bundle };
}

const manifestOf = (index: string) => build(index).manifest;

/** The head of a rendered page written into a shell, as the server sends it. */
const headOf = ({ beforeTitle, beforeContent }: PageManifest['renderedPage']['signedOut']) =>
  `${beforeTitle}Sign in${beforeContent}`.split('</head>')[0]!;

describe('the page manifest', () => {
  it('cuts the signed-out page: the entry and its chunks requested from the head at low priority, no API preloads, #root open to input', () => {
    expect(manifestOf(INDEX).renderedPage.signedOut).toEqual({
      beforeTitle: '<!doctype html><html><head><title>',
      beforeContent:
        '</title>\n<script type="module" crossorigin fetchpriority="low" src="/assets/index-e1.js"></script>\n' +
        '<link rel="modulepreload" crossorigin fetchpriority="low" href="/assets/react-r1.js">\n<style>body{}</style>\n' +
        '</head><body><div id="root">',
      beforeData: '</div>',
      afterData: '</body></html>',
    });
  });

  it("requests on a signed-in page the frame's chunks from the head beside the first page's, and writes in its stylesheet", () => {
    const head = headOf(manifestOf(INDEX).renderedPage.signedIn);
    for (const tag of [
      '<script type="module" crossorigin fetchpriority="low" src="/assets/index-e1.js"></script>',
      '<link rel="modulepreload" crossorigin fetchpriority="low" href="/assets/react-r1.js">',
      '<link rel="modulepreload" crossorigin fetchpriority="low" href="/assets/signed-in-s1.js">',
      '<link rel="modulepreload" crossorigin fetchpriority="low" href="/assets/shared-m1.js">',
      // Its rules in the page; its link only tells Vite's chunk loader that the page has them.
      '<style>.frame{}</style><link rel="stylesheet" crossorigin href="/assets/signed-in-s1.css" disabled>',
    ])
      expect(head).toContain(tag);
    expect(head.split('signed-in-s1.css')).toHaveLength(2);
    expect(head).not.toContain('/api/v1/');
    // React's chunk is the first page's: named once.
    expect(head.split('react-r1.js')).toHaveLength(2);
  });

  it("preloads the frame's files on the page a browser holding a session renders alone", () => {
    expect(manifestOf(INDEX).signedInPage).toBe(
      INDEX.replace(
        '</head>',
        '<link rel="modulepreload" crossorigin href="/assets/signed-in-s1.js">\n    ' +
          '<link rel="modulepreload" crossorigin href="/assets/shared-m1.js">\n    ' +
          '<link rel="preload" as="style" crossorigin href="/assets/signed-in-s1.css">\n  </head>',
      ),
    );
  });

  it('hints V8 to compile eagerly the chunks the rendered pages run at once, and no other', () => {
    const { bundle } = build(INDEX);
    const code = (fileName: string) => (bundle[fileName] as Rolldown.OutputChunk).code;
    for (const fileName of [
      'assets/index-e1.js',
      'assets/react-r1.js',
      'assets/signed-in-s1.js',
      'assets/shared-m1.js',
    ])
      // At the very top, above Vite's table too.
      expect(code(fileName)).toBe(`${EAGER_COMPILE_HINT}${codeOf(fileName)}`);
    // A page loaded later keeps V8's lazy compilation: most of it never runs on the first visit.
    expect(code('assets/billing-b1.js')).toBe('/* assets/billing-b1.js */');
  });

  it('fails the build when the page no longer holds what it is cut at', () => {
    expect(() => manifestOf(INDEX.replace('<div id="root"></div>', '<main></main>'))).toThrow(
      /page manifest/,
    );
    expect(() => manifestOf(INDEX.replace(/<script type="module"[^>]*><\/script>/, ''))).toThrow(
      /entry script/,
    );
  });
});
