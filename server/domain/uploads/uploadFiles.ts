/**
 * Writing an upload's file (#31 item 8): the bytes go to a temporary name in
 * DATA_DIR/uploads (`.<name>.<random>.tmp`, never served: isUploadName refuses
 * a leading dot) and are renamed into place when the row commits. Whatever
 * fails — a full disk mid-write, a quota found broken in the transaction, a
 * failed insert — the temporary file and any renamed file are removed before
 * the error goes on; a full disk becomes 503 storage_full with a sentence for
 * the reader. What a killed process still leaves behind (a `.tmp` file) the
 * upload sweeper removes once it is older than STRAY_TEMP_MS.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../errors/AppError.js';
import { isDiskFull } from '../../errors/diskFull.js';
import { randomPublicId } from '../../lib/ids.js';

/** A temporary file older than this is left from a killed process (an upload writes for well under a second). */
export const STRAY_TEMP_MS = 60 * 60 * 1000;

/** Whether a file name in the uploads directory is a temporary one. */
export const isTempName = (name: string): boolean => name.startsWith('.') && name.endsWith('.tmp');

export const diskFull = (what: string): AppError =>
  new AppError('storage_full', `${what} was not stored: the server's disk is full. Try again later, or ask the site's administrator to free space.`);

/**
 * Stores `data` as `dir/name`: written to a temporary file, then `commit(place)`
 * runs (a transaction inserting the row) and calls `place()` to rename the file
 * into place once its statements went through. On any failure nothing is left.
 */
export async function storeFile<T>(dir: string, name: string, data: Buffer, what: string, commit: (place: () => Promise<void>) => Promise<T>): Promise<T> {
  const temp = path.join(dir, `.${name}.${randomPublicId(8)}.tmp`);
  const final = path.join(dir, name);
  let placed = false;
  // Not twice: a second run of the transaction (after a deadlock) finds the file in place.
  const place = async (): Promise<void> => {
    if (placed) return;
    await fs.rename(temp, final);
    placed = true;
  };
  try {
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(temp, data, { flag: 'wx' });
    return await commit(place);
  } catch (err) {
    await fs.rm(temp, { force: true }).catch(() => undefined);
    await fs.rm(final, { force: true }).catch(() => undefined);
    if (isDiskFull(err)) throw diskFull(what);
    throw err;
  }
}
