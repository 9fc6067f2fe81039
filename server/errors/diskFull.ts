/**
 * Whether an error says the disk is full (#31 item 8): ENOSPC (or EDQUOT, a
 * filesystem quota) from a file write, SQLITE_FULL from the embedded database
 * under DATA_DIR. The error handler answers these 503 storage_full instead of
 * 500, and /healthz reports a disk without room for one more upload (domain/uploads/diskSpace.ts).
 */
export function isDiskFull(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL';
}
