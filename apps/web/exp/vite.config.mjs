import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
const e = process.env.EXP;
export default defineConfig({ root: import.meta.dirname, plugins:[react()], logLevel:'warn',
  resolve: { alias: process.env.PROD_RR ? [{ find: /^react-router$/, replacement: new URL('../../../node_modules/react-router/dist/production/index.mjs', import.meta.url).pathname }] : [] },
  build: { outDir: '/tmp/exp/'+e, emptyOutDir: true, rolldownOptions: { input: import.meta.dirname + '/' + e + '.html' } } });
