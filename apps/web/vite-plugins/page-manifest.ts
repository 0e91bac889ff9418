import path from 'node:path';
import type { Plugin, Rolldown } from 'vite';
// By path, not by the package's name: the build's configuration is bundled to run on Node 20, which
// loads a package named by the import as it is, and the contracts are TypeScript.
import {
  PAGE_MANIFEST_FILE,
  pageManifestSchema,
  type RenderedPageShell,
} from '../../../packages/contracts/src/server-render.ts';

type OutputBundle = Rolldown.OutputBundle;
type OutputChunk = Rolldown.OutputChunk;

export interface PageManifestOptions {
  /** The web app's root directory, against which `signedInFrame` is named. */
  webRoot: string;
  /** The route module of the signed-in frame, whose chunks every signed-in page needs. */
  signedInFrame: string;
  /** The API calls the built page preloads, which a rendered page carries in itself. */
  firstRequests: readonly string[];
}

const TITLE = /<title>[^<]*<\/title>/;
const ROOT = '<div id="root"></div>';
const ENTRY_SCRIPT = /<script type="module" crossorigin src="[^"]+"><\/script>/;
/** The start of every tag of the page that requests one of its scripts. */
const SCRIPT_REQUEST = /<(script type="module"|link rel="modulepreload") crossorigin /g;

/** Marks where the shell is cut: a character no built page holds. */
const CUT = '\u0000';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The chunks a chunk needs before it runs: itself and its static imports, transitively, in import order. */
function staticClosure(bundle: OutputBundle, fileName: string, into = new Set<string>()): Set<string> {
  const chunk = bundle[fileName];
  if (into.has(fileName) || chunk?.type !== 'chunk') return into;
  into.add(fileName);
  for (const imported of chunk.imports) staticClosure(bundle, imported, into);
  return into;
}

/** A stylesheet of the build: its address and its rules. */
interface Stylesheet {
  href: string;
  rules: string;
}

/** The files a signed-in page needs beyond the first page's own: the signed-in frame's chunks. */
interface SignedInFrameFiles {
  /** The chunks' file names in the bundle. */
  chunks: string[];
  stylesheets: Stylesheet[];
}

function stylesheet(bundle: OutputBundle, fileName: string): Stylesheet {
  const asset = bundle[fileName];
  if (asset?.type !== 'asset') throw new Error(`page manifest: ${fileName} is not a stylesheet of the build`);
  const rules = String(asset.source);
  // Written into a <style> element, which ends at the first `</style`.
  if (/<\/style/i.test(rules)) throw new Error(`page manifest: ${fileName} holds </style`);
  return { href: `/${fileName}`, rules };
}

function signedInFrameFiles(
  bundle: OutputBundle,
  entry: OutputChunk,
  frameModule: string,
): SignedInFrameFiles {
  const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
  const frame = chunks.find((chunk) => chunk.moduleIds.includes(frameModule));
  if (!frame) throw new Error(`page manifest: ${frameModule} is in no chunk of the build`);
  const loadedFirst = staticClosure(bundle, entry.fileName);
  const frameChunks = [...staticClosure(bundle, frame.fileName)]
    .filter((fileName) => !loadedFirst.has(fileName))
    .map((fileName) => bundle[fileName] as OutputChunk);
  return {
    chunks: frameChunks.map((chunk) => chunk.fileName),
    stylesheets: frameChunks.flatMap((chunk) =>
      [...(chunk.viteMetadata?.importedCss ?? [])].map((css) => stylesheet(bundle, css)),
    ),
  };
}

/**
 * V8's explicit compile hint (Chrome 136 and later): a script that starts with it has every function
 * compiled while it downloads, on a background thread, instead of each on the main thread when first
 * called. Hydrating a page calls much of React's code once, and compiling it there made the
 * take-over's longest tasks (decision 045).
 */
export const EAGER_COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

/**
 * Puts the compile hint at the top of the chunks a rendered page runs as soon as they arrive. It is
 * added once the chunks are hashed: a comment, added to the same chunks in every build, so a file's
 * name still changes exactly when its code does.
 */
function hintEagerCompilation(bundle: OutputBundle, fileNames: Iterable<string>) {
  for (const fileName of fileNames) {
    const chunk = bundle[fileName];
    if (chunk?.type === 'chunk' && !chunk.code.startsWith(EAGER_COMPILE_HINT))
      chunk.code = EAGER_COMPILE_HINT + chunk.code;
  }
}

/** `html` with `pattern` replaced, failing the build when the page no longer holds it. */
function replaceIn(html: string, pattern: string | RegExp, replacement: string): string {
  const found = typeof pattern === 'string' ? html.includes(pattern) : new RegExp(pattern.source).test(html);
  if (!found) throw new Error(`page manifest: the built index.html holds no ${String(pattern)}`);
  // A function, so that `$` in the replacement is text.
  return html.replace(pattern, () => replacement);
}

/** Preloads of the signed-in frame's chunks, which the built page's entry reaches only lazily. */
const modulePreloads = (chunks: readonly string[]) =>
  chunks.map((fileName) => `<link rel="modulepreload" crossorigin href="/${fileName}">`);

/**
 * The frame's stylesheets in a rendered signed-in page: their rules written into it, as the entry's
 * are (vite.config.ts), so that nothing but the page itself holds back its first paint. Each is also
 * named by a `disabled` link, which the browser neither fetches nor applies: Vite's loader of the
 * frame's chunk adds a stylesheet link for each of the chunk's stylesheets that the document does not
 * link yet, and waits for it to load before the chunk runs, which would put a round trip between the
 * page's scripts and its take-over.
 */
const inlineStylesheets = (stylesheets: readonly Stylesheet[]) =>
  stylesheets.map(
    ({ href, rules }) => `<style>${rules}</style><link rel="stylesheet" crossorigin href="${href}" disabled>`,
  );

/**
 * The built page cut for a rendered page (decisions 026 and 045): its head loads the entry and
 * preloads every chunk the page needs, as the built page does, so they download beside the HTML; on
 * a signed-in page that includes the frame's chunks (which hold the application list), and the
 * rules of its stylesheet, as they style what is already on screen. The scripts are asked for at low
 * priority: the page paints without them, so the HTML goes first. The API preloads are left out: the
 * page carries their answers.
 */
function renderedPageShell(
  html: string,
  { firstRequests }: PageManifestOptions,
  frame: SignedInFrameFiles | undefined,
): RenderedPageShell {
  if (!ENTRY_SCRIPT.test(html)) throw new Error('page manifest: the built index.html loads no entry script');
  const frameFiles = [...modulePreloads(frame?.chunks ?? []), ...inlineStylesheets(frame?.stylesheets ?? [])];
  let page = html;
  for (const href of firstRequests)
    page = replaceIn(
      page,
      new RegExp(`\\s*<link rel="preload" href="${escapeRegExp(href)}" as="fetch"[^>]*>`),
      '',
    );
  page = replaceIn(page, '</head>', `${frameFiles.join('')}</head>`);
  page = page.replace(SCRIPT_REQUEST, '<$1 crossorigin fetchpriority="low" ');
  page = replaceIn(page, ROOT, `<div id="root">${CUT}</div>${CUT}`);
  page = replaceIn(page, TITLE, `<title>${CUT}</title>`);
  const [beforeTitle, beforeContent, beforeData, afterData, ...more] = page.split(CUT);
  if (afterData === undefined || more.length > 0)
    throw new Error('page manifest: the built index.html holds a character the cuts are marked with');
  return { beforeTitle: beforeTitle!, beforeContent: beforeContent!, beforeData: beforeData!, afterData };
}

/**
 * Writes the page manifest (decision 038): everything the portal server needs of the built pages,
 * so that the server reads one typed file of this build's own rather than Vite's page and manifests.
 * Checked against the contract here, so a build never writes what the server would refuse.
 */
export function pageManifest(options: PageManifestOptions): Plugin {
  const frameModule = path.join(options.webRoot, options.signedInFrame);
  return {
    name: 'portal-page-manifest',
    apply: 'build',
    enforce: 'post',
    generateBundle: {
      // After Vite's own, which puts its table of a chunk's lazy dependencies (`__vite__mapDeps`) atop
      // the chunk: the compile hint goes above it, at the top of the file, where V8's explainer places
      // it. Below the table, /apps/asc was taken over about 100 ms later at CPU 4× (docs/performance.md,
      // run 5).
      order: 'post',
      handler(_options, bundle) {
        const index = bundle['index.html'];
        const entry = Object.values(bundle).find((output) => output.type === 'chunk' && output.isEntry);
        if (index?.type !== 'asset' || entry?.type !== 'chunk')
          this.error('the build has no index.html and entry');
        const html = String(index.source);
        const frame = signedInFrameFiles(bundle, entry, frameModule);
        hintEagerCompilation(bundle, [...staticClosure(bundle, entry.fileName), ...frame.chunks]);
        const preloads = [
          ...modulePreloads(frame.chunks),
          ...frame.stylesheets.map(
            ({ href }) => `<link rel="preload" as="style" crossorigin href="${href}">`,
          ),
        ];
        const manifest = pageManifestSchema.parse({
          version: 1,
          renderedPage: {
            signedOut: renderedPageShell(html, options, undefined),
            signedIn: renderedPageShell(html, options, frame),
          },
          signedInPage: replaceIn(html, '</head>', `${preloads.join('\n    ')}\n  </head>`),
        });
        this.emitFile({ type: 'asset', fileName: PAGE_MANIFEST_FILE, source: JSON.stringify(manifest) });
      },
    },
  };
}
