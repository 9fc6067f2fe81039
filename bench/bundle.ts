/**
 * Widget bundle sizes (issue 8): every file of dist/web/widget (built by
 * `npm run build:web`), raw and gzipped (level 9, as web/widget/size.test.ts
 * counts them), against the budgets of docs/WIDGET.md: the loader ≤ 3 KB,
 * the frame (page, JS, CSS) ≤ 30 KB gzipped.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { WIDGET_LANGUAGES } from '../protocol/widget.js';
import { today } from './lib/machine.js';
import { recordGoal, writeSection } from './lib/report.js';
import { ROOT } from './lib/server.js';

const DIST = path.join(ROOT, 'dist/web/widget');
const LOADER_BUDGET = 3 * 1024;
const FRAME_BUDGET = 30 * 1024;

export async function runBundleBench(): Promise<void> {
  if (!fs.existsSync(path.join(DIST, 'loader.js'))) {
    process.stderr.write('bundle: dist/web/widget is missing (npm run build:web); skipped\n');
    return;
  }
  const files = fs
    .readdirSync(DIST, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(DIST, path.join(e.parentPath, e.name)))
    .sort();
  const sizes = files.map((f) => {
    const bytes = fs.readFileSync(path.join(DIST, f));
    return { file: f, raw: bytes.length, gz: zlib.gzipSync(bytes, { level: 9 }).length };
  });
  const loader = sizes.find((s) => s.file === 'loader.js')!;
  // The frame with one language: each language but English is a chunk of its own (the largest counts).
  const language = (f: string): boolean => WIDGET_LANGUAGES.some((l) => path.basename(f).startsWith(`${l}-`));
  const others = sizes.filter((s) => s.file !== 'loader.js' && s.file !== 'svc-api.d.ts');
  const largest = Math.max(0, ...others.filter((s) => language(s.file)).map((s) => s.gz));
  const frame = others.filter((s) => !language(s.file)).reduce((n, s) => n + s.gz, 0) + largest;
  const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`;
  writeSection(
    'bundle',
    `## Widget bundle sizes (issue 8)

${today()}. \`dist/web/widget\` as \`npm run build:web\` leaves it; gzip level 9. Budgets (docs/WIDGET.md): loader ≤ 3 KB, frame (page, JS, CSS, one language) ≤ 30 KB gzipped.

| file | raw | gzipped |
|---|---|---|
${sizes.map((s) => `| \`${s.file}\` | ${kb(s.raw)} | ${kb(s.gz)} |`).join('\n')}
| **frame total, with its largest language** | | **${kb(frame)}** |`,
  );
  recordGoal({ key: 'bundle-loader', benchmark: 'Widget loader, gzipped', goal: '≤ 3 KB', measured: kb(loader.gz), met: loader.gz <= LOADER_BUDGET });
  recordGoal({ key: 'bundle-frame', benchmark: 'Widget frame (page, JS, CSS), gzipped', goal: '≤ 30 KB', measured: kb(frame), met: frame <= FRAME_BUDGET });
}
