/**
 * The widget's size budget and a deterministic build: the loader is at most
 * 3 KB gzipped, the frame (its page, JS and CSS, with one language: each
 * language but English is a chunk of its own) at most 30 KB gzipped, and
 * building the same sources again gives the same bytes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { WIDGET_LANGUAGES } from '../../protocol/widget.js';
import { buildWidget, ensureWidgetBuilt, WIDGET_DIST } from './build.js';

const gzipped = (file: string): number => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;

function files(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

describe('widget bundle', () => {
  beforeAll(async () => {
    await ensureWidgetBuilt();
  }, 120_000);

  it('keeps the loader within 3 KB gzipped', () => {
    const size = gzipped(path.join(WIDGET_DIST, 'loader.js'));
    console.log(`loader.js: ${size} bytes gzipped`);
    expect(size).toBeLessThanOrEqual(3 * 1024);
  });

  it('keeps the frame (page, JS, CSS) with its largest language within 30 KB gzipped', () => {
    const language = (f: string): boolean => WIDGET_LANGUAGES.some((l) => path.basename(f).startsWith(`${l}-`));
    const all = files(WIDGET_DIST).filter((f) => f !== 'loader.js' && f !== 'svc-api.d.ts');
    const frame = all.filter((f) => !language(f));
    const languages = all.filter(language);
    expect(frame).toContain(path.join('frame', 'index.html'));
    expect(frame.some((f) => f.endsWith('.js'))).toBe(true);
    // Every language but English (in the frame's bundle) has its chunk.
    expect(languages).toHaveLength(WIDGET_LANGUAGES.length - 1);
    const largest = Math.max(...languages.map((f) => gzipped(path.join(WIDGET_DIST, f))));
    const total = frame.reduce((sum, f) => sum + gzipped(path.join(WIDGET_DIST, f)), 0) + largest;
    console.log(`frame: ${total} bytes gzipped with its largest language (${largest} bytes; ${frame.join(', ')})`);
    expect(total).toBeLessThanOrEqual(30 * 1024);
  });

  it('injects nothing but the two placeholders the server replaces', () => {
    const loader = fs.readFileSync(path.join(WIDGET_DIST, 'loader.js'), 'utf8');
    expect(loader).toContain('__PARLEY_BASE__');
    expect(loader).toContain('__PARLEY_WIDGET_ID__');
  });

  it('builds deterministically: the same sources give the same files', () => {
    const again = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-widget-'));
    try {
      buildWidget(again);
      expect(files(again)).toEqual(files(WIDGET_DIST));
      for (const f of files(again)) expect(fs.readFileSync(path.join(again, f)).equals(fs.readFileSync(path.join(WIDGET_DIST, f))), f).toBe(true);
    } finally {
      fs.rmSync(again, { recursive: true, force: true });
    }
  }, 120_000);
});
