/**
 * Builds the widget into dist/web/widget (or $WIDGET_OUT_DIR, which the size
 * test uses to prove the build is deterministic):
 *   loader.js          the script pages include: one IIFE file, fixed name (the
 *                      server injects the widget id and its base URL into it)
 *   frame/index.html   the chat frame's page, served at /widget/frame/<id>
 *   assets/*           the frame's hashed JS/CSS, served immutable at /widget/assets/
 *   svc-api.d.ts       the page API's TypeScript declarations (a copy), served at /widget/svc-api.d.ts
 * Two environments of one `vite build`: the loader must be a classic script
 * with nothing shared, the frame an ES module app (Preact, JSX through oxc).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.resolve(process.env.WIDGET_OUT_DIR ?? path.join(root, '../../dist/web/widget'));

export default defineConfig({
  root,
  base: './',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: { outDir, emptyOutDir: false, target: 'es2020', modulePreload: false, reportCompressedSize: false, sourcemap: false },
  environments: {
    client: {
      build: {
        rolldownOptions: {
          input: { frame: path.join(root, 'frame/index.html') },
          output: { entryFileNames: 'assets/[name]-[hash].js', chunkFileNames: 'assets/[name]-[hash].js', assetFileNames: 'assets/[name]-[hash][extname]' },
        },
      },
    },
    loader: {
      consumer: 'client',
      build: {
        copyPublicDir: false,
        rolldownOptions: {
          input: path.join(root, 'loader/loader.ts'),
          output: { format: 'iife', entryFileNames: 'loader.js', codeSplitting: false },
        },
      },
    },
  },
  builder: {
    async buildApp(builder) {
      fs.rmSync(outDir, { recursive: true, force: true });
      await builder.build(builder.environments.client);
      await builder.build(builder.environments.loader);
      fs.copyFileSync(path.join(root, 'svc-api.d.ts'), path.join(outDir, 'svc-api.d.ts'));
    },
  },
});
