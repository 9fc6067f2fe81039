/** Admin → System as the API shows it (GET /api/v1/system). */
import type { SystemDto } from '../../protocol/agent.js';

/** An address that sent X-Forwarded-For without being listed in TRUST_PROXY (routes/untrustedProxy.ts). */
interface SeenProxy {
  address: string;
  firstSeenAt: number;
  lastSeenAt: number;
  requests: number;
}

export function presentSystem(trustProxy: readonly string[], untrusted: readonly SeenProxy[]): SystemDto {
  return {
    trust_proxy: [...trustProxy],
    untrusted_proxies: untrusted.map((p) => ({ address: p.address, first_seen_at: p.firstSeenAt, last_seen_at: p.lastSeenAt, requests: p.requests })),
  };
}
