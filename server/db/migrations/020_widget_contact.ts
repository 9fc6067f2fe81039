/**
 * CRM data is not echoed to the visitor (#15 item 10): the contact details a
 * widget visitor gave itself (contacts form, setContactInfo) are kept apart
 * from the visitor's name, e-mail and phone columns, which a chat_accepted
 * answer's contact_info also writes (agents see and events send those). The
 * widget shows back, and mails a transcript to, only these. JSON
 * `{name?, email?, phone?, description?}`; null = the visitor gave none
 * (visitors from before this migration too: nothing tells which of their
 * details they typed, so none is shown back).
 */
import type { ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb, _k: ColumnKinds): Promise<void> {
  await db.schema.alterTable('visitors').addColumn('widget_contact_json', 'text').execute();
}
