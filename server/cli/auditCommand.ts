/**
 * An audit-log row in every account for what the server's command line did
 * to the whole deployment (`backup.taken`, `backup.restored`; docs/DATA.md
 * "Audit log"): no agent, no address. A store that cannot be opened costs
 * the row, with a line saying so, never the command's own result.
 */
import type { Config } from '../config/config.js';
import { openStore } from '../db/database.js';
import { recordAudit } from '../domain/audit/recordAudit.js';

export async function auditCommand(config: Config, action: 'backup.taken' | 'backup.restored', now = Date.now()): Promise<void> {
  try {
    const store = await openStore(config);
    try {
      const accounts = await store.db.selectFrom('accounts').select('id').execute();
      for (const { id } of accounts) await recordAudit(store.db, { accountId: id, agent: null, action, address: null, at: now });
    } finally {
      await store.close();
    }
  } catch (err) {
    process.stderr.write(`(The audit log could not be written: ${err instanceof Error ? err.message : String(err)})\n`);
  }
}
