/** A sign-in throttle as the admin API shows it (GET /api/v1/auth/throttles). */
import type { SignInThrottleDto } from '../../protocol/agent.js';
import type { SignInThrottle } from '../db/schema.js';

export function presentSignInThrottle(t: SignInThrottle, now: number): SignInThrottleDto {
  const blockedUntil = Number(t.blocked_until);
  return {
    id: t.id,
    // Only pair and source rows are listed (manageThrottles.ts).
    kind: t.kind === 'source' ? 'source' : 'pair',
    address: t.address,
    email: t.kind === 'pair' ? t.email : null,
    failures: t.failures,
    first_failure_at: Number(t.first_failure_at),
    last_failure_at: Number(t.last_failure_at),
    blocked_until: blockedUntil > now ? blockedUntil : null,
    expires_at: Number(t.expires_at),
  };
}
