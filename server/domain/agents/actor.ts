/**
 * Who performs a domain operation: the signed-in agent, reduced to what the
 * rules need. Every query of an operation is scoped by actor.account_id.
 */
import type { Agent } from '../../db/schema.js';
import { AppError } from '../../errors/AppError.js';

export type Actor = Pick<Agent, 'id' | 'account_id' | 'role'>;

/** Admin-only operations re-check the role, whoever calls them. */
export function assertAdmin(actor: Actor): void {
  if (actor.role !== 'admin') throw new AppError('forbidden');
}
