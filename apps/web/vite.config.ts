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
    // zxcvbn's dictionaries (about 1.2 MB) form one chunk, loaded only once a password is typed.
    chunkSizeWarningLimit: 1300,
  },
});
