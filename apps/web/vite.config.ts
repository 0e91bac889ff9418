import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const portalServer = 'http://localhost:3000';
const proxyTo = (paths: string[]) => Object.fromEntries(paths.map((path) => [path, portalServer]));
// Answered by the portal server; in development the SPA runs on Vite's own port.
const serverPaths = ['/api', '/dev', '/regions'];
// The portal server serves the built SPA's public files; `vite preview` has them in dist itself.
const legalDocuments = ['/privacy_policy.md', '/terms_and_conditions.md'];

const ZOD = /node_modules[\\/]zod[\\/]/;

/**
 * Collects every module the entry imports statically (the first page's code), so that one chunk
 * can hold it: otherwise each module a lazy page shares with it becomes a tiny chunk of its own,
 * one more request before the first page is interactive. The contracts' schema modules are left
 * out: the entry reaches them only through the contracts' index, whose unused re-exports the
 * bundler drops, and zod must stay off the first page (decision 012).
 */
function firstPageModules(modules: Set<string>): Plugin {
  return {
    name: 'portal-first-page-modules',
    apply: 'build',
    buildEnd() {
      const visit = (id: string) => {
        const imported = this.getModuleInfo(id)?.importedIds ?? [];
        if (modules.has(id) || ZOD.test(id) || imported.some((dependency) => ZOD.test(dependency))) return;
        modules.add(id);
        imported.forEach(visit);
      };
      for (const id of this.getModuleIds()) if (this.getModuleInfo(id)?.isEntry) visit(id);
    },
  };
}

const firstPage = new Set<string>();

export default defineConfig({
  plugins: [react(), firstPageModules(firstPage)],
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
          ],
        },
      },
    },
  },
});
