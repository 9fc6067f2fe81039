/**
 * The list of migrations reads as they run (Kysely runs pending ones sorted by
 * name), and every migration file in this folder is on it.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { migrationNames } from './index.js';

describe('the migration list', () => {
  it('is in the order the migrations run', () => {
    expect(migrationNames()).toEqual([...migrationNames()].sort());
  });

  it('names every migration file of the folder', () => {
    const files = fs
      .readdirSync(import.meta.dirname)
      .filter((f) => /^\d{3}_.*\.ts$/.test(f) && !f.endsWith('.test.ts'))
      .map((f) => f.replace(/\.ts$/, ''))
      .sort();
    expect(migrationNames()).toEqual(files);
  });
});
