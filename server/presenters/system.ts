/** Admin → System as the API shows it (GET /api/v1/system). */
import type { BackupRunDto, SystemDto } from '../../protocol/agent.js';
import type { BackupRun, BackupSchedule } from '../backup/runs.js';

/** An address that sent X-Forwarded-For without being listed in TRUST_PROXY (routes/untrustedProxy.ts). */
interface SeenProxy {
  address: string;
  firstSeenAt: number;
  lastSeenAt: number;
  requests: number;
}

const presentRun = (r: BackupRun | null): BackupRunDto | null =>
  r === null
    ? null
    : {
        started_at: r.started_at,
        finished_at: r.finished_at,
        status: r.status,
        file: r.file,
        size_bytes: r.size_bytes,
        chats: r.chats,
        messages: r.messages,
        error: r.error,
      };

export function presentSystem(trustProxy: readonly string[], untrusted: readonly SeenProxy[], backups: BackupSchedule): SystemDto {
  return {
    trust_proxy: [...trustProxy],
    untrusted_proxies: untrusted.map((p) => ({ address: p.address, first_seen_at: p.firstSeenAt, last_seen_at: p.lastSeenAt, requests: p.requests })),
    backups: {
      enabled: backups.dir !== null,
      dir: backups.dir,
      interval_hours: backups.intervalHours,
      keep: backups.keep,
      last: presentRun(backups.last),
      last_failed: presentRun(backups.lastFailed),
      next_at: backups.nextAt,
    },
  };
}
