/**
 * The agent app's language budget (docs/I18N.md): English is in the app's
 * bundle, and each other language is a chunk of its own (de-….js, ar-….js
 * under dist/web/agent/assets), loaded before the first screen is drawn.
 * Each chunk is at most 15 KB gzipped, so a language costs the first start
 * little; the sizes are printed for docs/I18N.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureAgentAppBuilt } from '../../e2e/agent/harness.js';
import { AGENT_LANGUAGES } from '../../protocol/agent.js';

const ASSETS = path.resolve(import.meta.dirname, '../../dist/web/agent/assets');
const BUDGET = 15 * 1024;

const gzipped = (file: string): number => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;

describe('agent app languages', () => {
  beforeAll(async () => {
    await ensureAgentAppBuilt();
  }, 180_000);

  it('builds each language but English as a chunk of at most 15 KB gzipped', () => {
    const files = fs.readdirSync(ASSETS);
    const sizes: string[] = [];
    for (const lang of AGENT_LANGUAGES.filter((l) => l !== 'en')) {
      const chunks = files.filter((f) => new RegExp(`^${lang}-[\\w-]+\\.js$`).test(f));
      expect(chunks, `one chunk for ${lang}`).toHaveLength(1);
      const size = gzipped(path.join(ASSETS, chunks[0]));
      sizes.push(`${lang} ${size}`);
      expect(size, `${chunks[0]}: ${size} bytes gzipped`).toBeLessThanOrEqual(BUDGET);
    }
    console.log(`agent app language chunks, bytes gzipped: ${sizes.join(', ')}`);
  });
});
