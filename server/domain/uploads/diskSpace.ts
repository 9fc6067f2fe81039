/**
 * Whether the disk of the uploads can take one more file (#31 item 8), for
 * /healthz: the space left to unprivileged writers (statfs of
 * DATA_DIR/uploads, or of DATA_DIR before the first upload) below the largest
 * upload (10 MiB) is a full disk — an upload may then answer 503
 * storage_full. A disk whose space cannot be read is not called full.
 */
import fs from 'node:fs/promises';
import type { AppContext } from '../../context.js';
import { MAX_UPLOAD_BYTES, uploadsDir } from './storeUpload.js';

/** Bytes free for uploads, or null when the filesystem cannot say. */
export async function uploadsDiskFree(ctx: AppContext): Promise<number | null> {
  for (const dir of [uploadsDir(ctx.config.dataDir), ctx.config.dataDir]) {
    const stat = await fs.statfs(dir).catch(() => null);
    if (stat) return stat.bavail * stat.bsize;
  }
  return null;
}

export async function uploadsDiskFull(ctx: AppContext): Promise<boolean> {
  const free = await uploadsDiskFree(ctx);
  return free !== null && free < MAX_UPLOAD_BYTES;
}
