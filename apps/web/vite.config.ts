import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const portalServer = 'http://localhost:3000';
const proxyTo = (paths: string[]) => Object.fromEntries(paths.map((path) => [path, portalServer]));
// Answered by the portal server; in development the SPA runs on Vite's own port.
const serverPaths = ['/api', '/dev', '/regions'];
// The portal server serves the built SPA's public files; `vite preview` has them in dist itself.
const legalDocuments = ['/privacy_policy.md', '/terms_and_conditions.md'];

export default defineConfig({
  plugins: [react()],
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
          ],
        },
      },
    },
  },
});
