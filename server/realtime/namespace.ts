/**
 * The Redis key prefix of one deployment: `parley:{<deployment id>}:`, the
 * random id the deployment's database holds (db/deploymentId.ts). Every key
 * and channel Parley uses in Redis (the hub's channels, presence, the rate
 * limiter's counters) starts with it, so several deployments (staging and
 * production, customers of one host, parallel test runs) can share one Redis
 * without seeing each other's events, presence or limits, and every instance
 * of one deployment, sharing its database, uses the same prefix. The braces
 * make every key of a deployment hash to one Redis Cluster slot.
 *
 * It used to be derived from where the database lives (the SQLite file's real
 * path; PostgreSQL's system identifier + database + schema), which is the
 * same for every container with `DATA_DIR=/data` and for two clusters whose
 * role may not read pg_control_system(): security #31, docs/SECURITY.md §12.
 */
import type { Store } from '../db/database.js';
import { deploymentId } from '../db/deploymentId.js';

export async function deploymentPrefix(store: Store): Promise<string> {
  return `parley:{${await deploymentId(store)}}:`;
}
