/**
 * Test helper: makes sure dist/web/widget holds a build of the current widget
 * sources (building it when missing or older than a source file). Test files
 * run in parallel processes, so the build is done under a lock directory.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
export const WIDGET_DIST = path.join(REPO_ROOT, 'dist/web/widget');
export const WIDGET_CONFIG = path.join(REPO_ROOT, 'web/widget/vite.config.ts');

function newestSource(): number {
  let newest = Math.max(
    fs.statSync(WIDGET_CONFIG).mtimeMs,
    fs.statSync(path.join(REPO_ROOT, 'protocol/widget.ts')).mtimeMs,
    fs.statSync(path.join(REPO_ROOT, 'web/widget/svc-api.d.ts')).mtimeMs,
  );
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else newest = Math.max(newest, fs.statSync(p).mtimeMs);
    }
  };
  for (const d of ['loader', 'frame', 'shared']) walk(path.join(REPO_ROOT, 'web/widget', d));
  return newest;
}

function upToDate(): boolean {
  const loader = path.join(WIDGET_DIST, 'loader.js');
  return fs.existsSync(loader) && fs.existsSync(path.join(WIDGET_DIST, 'frame/index.html')) && fs.statSync(loader).mtimeMs >= newestSource();
}

/** Runs the widget's Vite build (into outDir when given). Throws when it fails. */
export function buildWidget(outDir?: string): void {
  // Vitest sets NODE_ENV=test; the shipped build (npm run build) runs without it, so build as production here too.
  const env = { ...process.env, NODE_ENV: 'production', ...(outDir ? { WIDGET_OUT_DIR: outDir } : {}) };
  const result = spawnSync('npx', ['vite', 'build', '--config', WIDGET_CONFIG, '--logLevel', 'warn'], { cwd: REPO_ROOT, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`widget build failed:\n${result.stdout}\n${result.stderr}`);
}

export async function ensureWidgetBuilt(): Promise<void> {
  if (upToDate()) return;
  const lock = path.join(os.tmpdir(), 'parley-widget-build.lock');
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      // Another process builds; a lock older than 2 minutes is a crashed build's.
      try {
        if (Date.now() - fs.statSync(lock).mtimeMs > 120_000) fs.rmSync(lock, { recursive: true, force: true });
      } catch {
        // gone meanwhile
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for the widget build lock ${lock}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    if (!upToDate()) buildWidget();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}
