/**
 * Build of the agent and admin app: web/agent → dist/web/agent (served at `/`
 * by server/routes/app/agentApp.ts). JSX is compiled by Vite's oxc transform
 * (React's automatic runtime); i18nCompact ships each language but English as
 * its texts alone, in the English keys' order (docs/I18N.md).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { i18nCompact } from './i18nCompact.js';

const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: here,
  base: '/',
  // sw.js, the offline page, the icons: copied as they are to the build's root (server/routes/app/pwa.ts serves them).
  publicDir: path.resolve(here, 'public'),
  plugins: [i18nCompact()],
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
        // A language's chunks by its tag: ru-….js (its core), ru-admin-team-….js (a group of its admin pages' texts); docs/I18N.md.
        chunkFileNames: (chunk) => {
          const id = chunk.facadeModuleId ?? '';
          const core = /\/i18n\/(\w+)\/index\.ts$/.exec(id);
          if (core) return `assets/${core[1]}-[hash].js`;
          const admin = /\/i18n\/(\w+)\/admin\.json\?(\w+)$/.exec(id);
          return admin ? `assets/${admin[1]}-admin-${admin[2]}-[hash].js` : 'assets/[name]-[hash].js';
        },
      },
    },
  },
});
