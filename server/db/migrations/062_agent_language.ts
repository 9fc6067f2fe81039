/**
 * The agent app's language per agent (#38): a BCP 47 tag the app speaks
 * (protocol/agent.ts AGENT_LANGUAGES), or null while the agent has not chosen
 * one (the app then follows the browser's languages).
 */
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('agents').addColumn('language', 'text').execute();
}
