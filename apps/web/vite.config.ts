import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// In development the SPA runs on Vite's port; these paths are answered by the portal server.
const serverPaths = ['/api', '/dev', '/regions', '/privacy_policy.md', '/terms_and_conditions.md'];

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: Object.fromEntries(serverPaths.map((path) => [path, 'http://localhost:3000'])),
  },
  build: {
    outDir: 'dist',
  },
});
