import { createRequire } from 'node:module';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { pageManifest } from './vite-plugins/page-manifest.ts';

const portalServer = 'http://localhost:3000';
const proxyTo = (paths: string[]) => Object.fromEntries(paths.map((path) => [path, portalServer]));
// Answered by the portal server; in development the SPA runs on Vite's own port.
const serverPaths = ['/api', '/dev', '/regions', '/card-sandbox'];
// The portal server serves the built SPA's public files; `vite preview` has them in dist itself.
const legalDocuments = ['/privacy_policy.md', '/terms_and_conditions.md'];

const ZOD = /node_modules[\\/]zod[\\/]/;
const webRoot = import.meta.dirname;

/**
 * Chunks for the two ways into the portal. Without them, each module a lazy page shares with
 * another becomes a chunk of its own: tens of small requests before a page is interactive.
 * - The first page: every module the entry imports statically (the public pages come with it).
 * - The signed-in landing (the frame and the application list, where /home leads): every module
 *   those routes import statically that the first page does not hold already.
 * The contracts' schema modules are left out of the first page: the entry reaches them only
 * through the contracts' index, whose unused re-exports the bundler drops, and zod must stay off
 * the first page (decision 012).
 */
const SIGNED_IN_FRAME = 'src/app/routes/app-layout.tsx';
const SIGNED_IN_LANDING = [SIGNED_IN_FRAME, 'src/app/routes/apps.tsx'];
const firstPage = new Set<string>();
const signedInLanding = new Set<string>();

function entryChunkModules(): Plugin {
  return {
    name: 'portal-entry-chunk-modules',
    apply: 'build',
    buildEnd() {
      // Each module's information is built anew on every call (most of the build's time when
      // asked once per import), so each is asked once.
      const importedIdsOf = new Map<string, readonly string[]>();
      const importsOf = (id: string) => {
        let imported = importedIdsOf.get(id);
        if (!imported) {
          imported = this.getModuleInfo(id)?.importedIds ?? [];
          importedIdsOf.set(id, imported);
        }
        return imported;
      };
      const collect = (
        into: Set<string>,
        id: string,
        skip: (id: string, imported: readonly string[]) => boolean,
      ) => {
        if (into.has(id)) return;
        const imported = importsOf(id);
        if (skip(id, imported)) return;
        into.add(id);
        imported.forEach((dependency) => collect(into, dependency, skip));
      };
      const importsZod = (id: string, imported: readonly string[]) =>
        ZOD.test(id) || imported.some((dependency) => ZOD.test(dependency));
      const ids = [...this.getModuleIds()];
      for (const id of ids) if (this.getModuleInfo(id)?.isEntry) collect(firstPage, id, importsZod);
      for (const route of SIGNED_IN_LANDING) {
        const id = ids.find((candidate) => candidate.endsWith(route));
        if (id) collect(signedInLanding, id, (candidate) => firstPage.has(candidate));
      }
    },
    // Which chunk holds each of the app's modules (the manifest names only the chunks' entry
    // modules): the JavaScript budget check finds a page's route modules with it.
    generateBundle(_options, bundle) {
      const chunkOf: Record<string, string> = {};
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        for (const id of output.moduleIds) {
          if (id.startsWith(webRoot))
            chunkOf[path.relative(webRoot, id).split(path.sep).join('/')] = output.fileName;
        }
      }
      this.emitFile({
        type: 'asset',
        fileName: '.vite/module-chunks.json',
        source: JSON.stringify(chunkOf, null, 1),
      });
    },
  };
}

/**
 * The built page, shaped for the first paint (decision 012):
 * - the entry's stylesheet (the base and the plain elements, about 2 kB) is written into the page,
 *   so nothing blocks rendering but the page itself;
 * - every page first asks who is signed in, and the sign-in pages which options exist: those
 *   requests are preloaded, after the scripts, so they start with the page instead of once the
 *   scripts have run, without taking a connection from the scripts.
 */
const FIRST_REQUESTS = ['/api/v1/accounts/me', '/api/v1/config'];

function firstPaintPage(): Plugin {
  return {
    name: 'portal-first-paint-page',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        const inlined = html.replace(
          /<link rel="stylesheet" crossorigin href="\/(assets\/index-[\w-]+\.css)">/,
          (link, file: string) => {
            const stylesheet = bundle?.[file];
            return stylesheet?.type === 'asset' ? `<style>${String(stylesheet.source)}</style>` : link;
          },
        );
        return {
          html: inlined,
          tags: FIRST_REQUESTS.map((href) => ({
            tag: 'link',
            attrs: { rel: 'preload', href, as: 'fetch', crossorigin: 'anonymous' },
            injectTo: 'head' as const,
          })),
        };
      },
    },
  };
}

/**
 * React Router's package points every build at its development bundle (react-router issue 14102),
 * which differs from its production bundle only in having its development warnings on: their checks
 * run in the page and their messages ship with the first script. Both builds take the production
 * one; the development server keeps the warnings.
 */
function reactRouterProductionBundle(): Plugin {
  const bundle = path.join(
    path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
    'dist/production/index.mjs',
  );
  return {
    name: 'portal-react-router-production-bundle',
    apply: 'build',
    config: () => ({ resolve: { alias: [{ find: /^react-router$/, replacement: bundle }] } }),
  };
}

/**
 * The server render's build (decision 026): one file holding its libraries too, so the portal
 * server loads it from wherever the build was written, beside the browser's build.
 */
const serverRenderBuild = defineConfig({
  plugins: [react(), reactRouterProductionBundle()],
  ssr: { noExternal: true },
  build: {
    outDir: 'dist-server',
    copyPublicDir: false,
    emptyOutDir: true,
    rolldownOptions: { input: 'src/entry-server.tsx', output: { codeSplitting: false } },
  },
});

const browserBuild = defineConfig({
  plugins: [
    react(),
    reactRouterProductionBundle(),
    entryChunkModules(),
    firstPaintPage(),
    pageManifest({ webRoot, signedInFrame: SIGNED_IN_FRAME, firstRequests: FIRST_REQUESTS }),
  ],
  server: { proxy: proxyTo([...serverPaths, ...legalDocuments]) },
  preview: { proxy: proxyTo(serverPaths) },
  build: {
    outDir: 'dist',
    // .vite/manifest.json: which chunks each route needs, read by the JavaScript budget check.
    manifest: true,
    // zxcvbn's dictionaries (about 1.2 MB) form one chunk, loaded only once a password is typed.
    chunkSizeWarningLimit: 1300,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Libraries every page loads get chunks of their own, named and hashed apart from the
          // app's code, so a release that changes a page leaves them in the browser's cache.
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 3 },
            { name: 'router', test: /node_modules[\\/]react-router[\\/]/, priority: 2 },
            // The rest of the first page: one chunk for the app's code and the few libraries it uses.
            { name: 'portal', test: (id) => firstPage.has(id), priority: 1 },
            {
              name: 'signed-in',
              test: (id) => signedInLanding.has(id) && !id.includes('node_modules'),
              priority: 1,
            },
          ],
        },
      },
    },
  },
});

export default defineConfig(({ isSsrBuild }) => (isSsrBuild ? serverRenderBuild : browserBuild));
