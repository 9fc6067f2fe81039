/**
 * The previous release's build, for the rolling upgrade test (rolling.test.ts):
 * the commit CHANGELOG.md names for it, checked out with `git worktree add
 * --detach` under the temp dir and built there (`npm run build:server`; the
 * chat channel and the API need no dist/web). Its dependencies: this
 * checkout's node_modules, linked, when every package the release's
 * package-lock.json pins is pinned to the same version and integrity in ours
 * (the release can load nothing else); `npm ci` in the worktree otherwise.
 * The build is kept (os.tmpdir()/parley-release-<commit>, marked done once
 * built) for the next run. A commit this clone does not have (a shallow
 * clone) skips the test with a warning, and fails it on CI (CI=true).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../process/serverProcess.js';

export interface Release {
  version: string;
  commit: string;
}

/** The release CHANGELOG.md names as upgraded from: the first `## <version> (commit <sha>)` heading. */
export function previousRelease(): Release {
  const changelog = fs.readFileSync(path.join(repoRoot, 'CHANGELOG.md'), 'utf8');
  const m = /^## (\d+\.\d+\.\d+) \(commit ([0-9a-f]{40})\)/m.exec(changelog);
  if (!m) throw new Error('CHANGELOG.md names no previous release as "## <version> (commit <40-hex sha>)"');
  return { version: m[1], commit: m[2] };
}

const git = (args: string[], cwd = repoRoot): string => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

function hasCommit(commit: string): boolean {
  try {
    git(['cat-file', '-e', `${commit}^{commit}`]);
    return true;
  } catch {
    return false;
  }
}

type Lock = { packages?: Record<string, { version?: string; integrity?: string }> };

/** Whether every package of `release`'s lock is in `current`'s with the same version and integrity. */
export function locksCompatible(release: Lock, current: Lock): boolean {
  const ours = current.packages ?? {};
  return Object.entries(release.packages ?? {}).every(
    ([name, p]) => name === '' || (ours[name]?.version === p.version && ours[name]?.integrity === p.integrity),
  );
}

/**
 * The built release (its directory, with dist/server/main.js), or null when this clone lacks the
 * commit outside CI (the caller skips, loudly).
 */
export function buildRelease(release: Release, log: (line: string) => void): string | null {
  const dir = path.join(os.tmpdir(), `parley-release-${release.commit}`);
  const done = path.join(dir, '.parley-release-built');
  if (fs.existsSync(done) && fs.existsSync(path.join(dir, 'dist/server/main.js'))) return dir;

  if (!hasCommit(release.commit)) {
    const message =
      `The previous release ${release.version} (commit ${release.commit}, named in CHANGELOG.md) is not in this clone: ` +
      'the rolling upgrade test builds it. Fetch the full history (git fetch --unshallow, or actions/checkout with fetch-depth: 0).';
    if (process.env.CI === 'true' || process.env.CI === '1') throw new Error(message);
    console.warn(`WARNING: skipping the rolling upgrade test. ${message}`);
    return null;
  }

  const started = Date.now();
  git(['worktree', 'prune']);
  fs.rmSync(dir, { recursive: true, force: true });
  git(['worktree', 'add', '--detach', dir, release.commit]);
  const lockOf = (root: string): Lock => JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as Lock;
  if (locksCompatible(lockOf(dir), lockOf(repoRoot))) {
    fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    log(`release ${release.version}: node_modules linked (its lock is a subset of ours)`);
  } else {
    log(`release ${release.version}: npm ci (its lock pins packages ours does not)`);
    // --ignore-scripts: the package's own "prepare" would build the web apps too; the
    // dependencies' install scripts (better-sqlite3's binary) run in npm rebuild.
    execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
    execFileSync('npm', ['rebuild'], { cwd: dir, stdio: 'inherit' });
  }
  execFileSync('npm', ['run', 'build:server'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  fs.writeFileSync(done, new Date().toISOString());
  log(`release ${release.version} built in ${((Date.now() - started) / 1000).toFixed(1)} s at ${dir}`);
  return dir;
}
