/**
 * Build of the agent and admin app: web/agent → dist/web/agent (served at `/`
 * by server/routes/app/agentApp.ts). JSX is compiled by Vite's oxc transform
 * (React's automatic runtime), so no plugin is needed.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: here,
  base: '/',
  // sw.js, the offline page, the icons: copied as they are to the build's root (server/routes/app/pwa.ts serves them).
  publicDir: path.resolve(here, 'public'),
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  build: {
    outDir: path.resolve(here, '../../dist/web/agent'),
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    sourcemap: false,
    // Everything is hashed and served as immutable from /assets/.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    rollupOptions: {
      output: {
        // A language's chunks by its tag: ru-….js (its core), ru-admin-….js (its admin pages' texts); docs/I18N.md.
        chunkFileNames: (chunk) => {
          const part = /\/i18n\/(\w+)\/(admin|index)\.ts$/.exec(chunk.facadeModuleId ?? '');
          return part ? `assets/${part[1]}${part[2] === 'admin' ? '-admin' : ''}-[hash].js` : 'assets/[name]-[hash].js';
        },
      },
    },
  },
});
