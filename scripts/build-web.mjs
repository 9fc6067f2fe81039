#!/usr/bin/env node
// Builds every web app that has a Vite config (web/<app>/vite.config.ts) into dist/web/<app>.
// Run by `npm run build` (and so by `npm ci`, through `prepare`).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const webDir = path.join(root, 'web');
const apps = fs.existsSync(webDir) ? fs.readdirSync(webDir).filter((d) => fs.existsSync(path.join(webDir, d, 'vite.config.ts'))) : [];
for (const app of apps) {
  const config = path.join(webDir, app, 'vite.config.ts');
  const result = spawnSync('npx', ['vite', 'build', '--config', config, '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) {
    console.error(`web build of ${app} failed`);
    process.exit(result.status ?? 1);
  }
}
