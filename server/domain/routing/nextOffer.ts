/**
 * Who gets a chat next, and until when: the department's turn or everyone's
 * (by `everyone_at`), the mode of that turn, and the agent pickAgent finds —
 * skipping those offered it in this round; when every eligible agent was, a
 * new round starts (only the agent it was just offered to is skipped). The
 * chosen agent's last_offered_at moves to now (round robin's order; pickAgent
 * stamps it in the statement that picks). Null when
 * the chat is no longer routed: its turn's mode is manual and no later turn
 * offers it.
 */
import type { Tx } from '../../db/database.js';
import type { Chat } from '../../db/schema.js';
import { isOffering, NOBODY_RETRY_MS, type OfferingMode } from './modes.js';
import { pickAgent } from './pickAgent.js';
import type { ChatRouting } from './routingConfig.js';

export interface NextOffer {
  /** null: nobody eligible now; looked at again at expiresAt. */
  agentId: number | null;
  expiresAt: number;
  /** The agents offered it in this round, the new one included. */
  tried: number[];
  /** The department whose agents only were eligible; null = everyone. */
  departmentId: number | null;
  mode: OfferingMode | null;
}

export function departmentTurn(chat: Pick<Chat, 'department_id'>, everyoneAt: number | null, now: number): boolean {
  return chat.department_id !== null && (everyoneAt === null || now < everyoneAt);
}

export async function nextOffer(
  tx: Tx,
  chat: Pick<Chat, 'account_id' | 'channel_id' | 'department_id'>,
  routing: ChatRouting,
  o: { everyoneAt: number | null; tried: number[]; current: number | null; now: number; pending?: number[] },
): Promise<NextOffer | null> {
  const inDepartment = departmentTurn(chat, o.everyoneAt, o.now);
  const mode = inDepartment ? routing.department_mode : routing.mode;
  const departmentId = inDepartment ? chat.department_id : null;
  if (!isOffering(mode)) {
    // The department waits in the manual queue; everyone's turn may still offer it.
    if (inDepartment && o.everyoneAt !== null && isOffering(routing.mode)) {
      return { agentId: null, expiresAt: o.everyoneAt, tried: [], departmentId, mode: null };
    }
    return null;
  }
  const pick = { accountId: chat.account_id, channelId: chat.channel_id, departmentId, mode, now: o.now, pending: o.pending };
  let tried = o.tried;
  let agentId = await pickAgent(tx, { ...pick, exclude: tried });
  if (agentId === null && tried.length > 0) {
    tried = [];
    agentId = await pickAgent(tx, { ...pick, exclude: o.current === null ? [] : [o.current] });
  }
  if (agentId === null) {
    const retry = o.now + NOBODY_RETRY_MS;
    const expiresAt = inDepartment && o.everyoneAt !== null ? Math.min(retry, o.everyoneAt) : retry;
    return { agentId: null, expiresAt, tried, departmentId, mode };
  }
  return { agentId, expiresAt: o.now + routing.offer_timeout_seconds * 1000, tried: [...tried, agentId], departmentId, mode };
}
