/**
 * README says Parley needs "Node.js 20.19 or newer": true of every package
 * `npm ci` installs, not only of Parley's own `engines` (an override in
 * package.json keeps `cookie` at a version that supports Node 20). Read from
 * package-lock.json, so a dependency bump that drops Node 20 fails here
 * instead of as an EBADENGINE warning on someone's machine.
 */
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }>;
};

describe('the Node.js version README names', () => {
  const named = /Node\.js (\d+\.\d+) or newer/.exec(readme)?.[1];
  const oldest = `${named}.0`;

  it('is the oldest package.json accepts', () => {
    expect(named).toBeDefined();
    expect(semver.minVersion(pkg.engines.node)?.version).toBe(oldest);
  });

  it('is accepted by every package in package-lock.json', () => {
    const refused = Object.entries(lock.packages)
      .filter(([name]) => name !== '')
      .map(([name, p]) => [name, p.engines && !Array.isArray(p.engines) ? p.engines.node : undefined] as const)
      .filter(([, range]) => range !== undefined && !semver.satisfies(oldest, range, { includePrerelease: true }))
      .map(([name, range]) => `${name.replace(/^.*node_modules\//, '')} wants node ${range}`);
    expect(refused).toEqual([]);
  });
});
