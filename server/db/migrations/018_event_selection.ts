/**
 * Event webhooks as integrations expect them (issue #17):
 *
 * - settings.event_webhook_types_json: which event types an account's event
 *   webhooks send, as the admin chose them (`{"call_event": false, …}`);
 *   null = the defaults (every spec type on, the opt-in extras off).
 * - chats.crm_custom_data_json, chats.crm_page_json: the custom_data and the
 *   page of the chat_accepted receiver's answer, kept apart from the page's
 *   own custom data (setCustomData) and from the page the visitor is on.
 *
 * Deliveries gain the status `cancelled` (a type unticked while it was still
 * pending): the column is text, so no change is needed for it.
 */
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('settings').addColumn('event_webhook_types_json', 'text').execute();
  await db.schema.alterTable('chats').addColumn('crm_custom_data_json', 'text').execute();
  await db.schema.alterTable('chats').addColumn('crm_page_json', 'text').execute();
}
