/**
 * Directories that are really read-only or really full, for the start-error
 * tests: a read-only bind mount and a tiny tmpfs. The suite runs as root,
 * whom chmod does not stop, so a mount is the only honest read-only
 * directory; without the right to mount (not root, or a container without
 * CAP_SYS_ADMIN) `mountable` is false and those tests are skipped, saying so.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const isRoot = process.getuid?.() === 0;

/** Whether this process may mount (probed once with a tiny tmpfs). */
export const mountable: boolean = (() => {
  if (!isRoot) return false;
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4k', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    console.warn('mount is not permitted here: the read-only and full DATA_DIR tests are skipped');
    return false;
  } finally {
    fs.rmSync(probe, { recursive: true, force: true });
  }
})();

/** Mounts and temporary directories made, undone by `undoAll()` (in afterEach), last first. */
export class Mounts {
  private readonly undo: Array<() => void> = [];

  tempDir(prefix = 'parley-datadir-'): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    this.undo.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    return dir;
  }

  /** A read-only view of `source` (a read-only bind mount). */
  readOnly(source: string): string {
    return this.mount(['--bind', '-o', 'ro', source]);
  }

  /** A 64 KiB file system: too small for the database's first migrations. */
  full(): string {
    return this.mount(['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs']);
  }

  undoAll(): void {
    for (const step of this.undo.splice(0).reverse()) step();
  }

  private mount(args: string[]): string {
    const target = this.tempDir();
    execFileSync('mount', [...args, target]);
    this.undo.push(() => execFileSync('umount', [target]));
    return target;
  }
}
