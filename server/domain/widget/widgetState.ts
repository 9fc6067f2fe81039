/**
 * What the chat frame loads at start (SessionResponse minus the token): the
 * contact info the visitor gave itself, the open chat (or the last one, for rating) with
 * the messages the visitor may see, availability, widget settings, and the
 * cursor to resume the socket from. The cursor is read before the state, so
 * every event up to it is already reflected in what is returned; what comes
 * later arrives on the socket.
 */
import { readAppearance } from '../../model/appearance.js';
import type { Executor } from '../../db/database.js';
import type { Channel, Chat, Visitor } from '../../db/schema.js';
import { parseJson } from '../../lib/json.js';
import { relayedHead } from '../../events/feedPosition.js';
import { presentContactInfo, presentWidgetAgent, presentWidgetChat } from '../../presenters/widget.js';
import type { SessionResponse, WidgetAgent, WidgetChat } from '../../../protocol/widget.js';
import { isChannelAvailable } from '../channels/access.js';
import { widgetOptions } from '../channels/channelInput.js';
import { readOwnContact } from '../../model/ownContact.js';
import { departmentChoice, widgetDepartments } from '../routing/departmentChoice.js';
import { callbackOf, settingsOf } from '../settings/getSettings.js';
import { storedAccountName } from '../accounts/accountName.js';

/** The visitor's open chat, else its last one; undefined before the first message. */
export async function currentChat(db: Executor, visitorId: number): Promise<Chat | undefined> {
  const open = await db
    .selectFrom('chats')
    .selectAll()
    .where('visitor_id', '=', visitorId)
    .where('status', 'in', ['pending', 'active'])
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return open ?? (await db.selectFrom('chats').selectAll().where('visitor_id', '=', visitorId).orderBy('id', 'desc').limit(1).executeTakeFirst());
}

/** Agents by id, as the visitor sees them (name and photo only). */
export async function widgetAgents(db: Executor, accountId: number, ids: Iterable<number>): Promise<Map<number, WidgetAgent>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db.selectFrom('agents').select(['id', 'name', 'photo_url']).where('account_id', '=', accountId).where('id', 'in', unique).execute();
  return new Map(rows.map((a) => [a.id, presentWidgetAgent(a)]));
}

export async function loadWidgetChat(db: Executor, chat: Chat): Promise<WidgetChat> {
  const messages = await db
    .selectFrom('messages')
    .selectAll()
    .where('chat_id', '=', chat.id)
    .where('suppressed', '=', 0)
    .where('internal', '=', 0)
    .orderBy('id', 'asc')
    .execute();
  const ids = messages.map((m) => m.agent_id).filter((id): id is number => id !== null);
  if (chat.accepted_by !== null) ids.push(chat.accepted_by);
  const agents = await widgetAgents(db, chat.account_id, ids);
  return presentWidgetChat(chat, (id) => agents.get(id), messages);
}

export async function loadWidgetState(db: Executor, channel: Channel, visitor: Visitor, now: number): Promise<Omit<SessionResponse, 'visitor_token'>> {
  const cursor = await relayedHead(db, channel.account_id);
  const fresh = await db.selectFrom('visitors').selectAll().where('id', '=', visitor.id).executeTakeFirstOrThrow();
  const chat = await currentChat(db, visitor.id);
  const settings = await settingsOf(db, channel.account_id, now);
  const options = widgetOptions(channel);
  const choice = departmentChoice(channel);
  return {
    // What the visitor typed, never what a CRM's chat_accepted answer wrote to the visitor (docs/SECURITY.md §10).
    visitor: { number: fresh.number, ...presentContactInfo(readOwnContact(fresh)) },
    online: await isChannelAvailable(db, channel.account_id, channel.id, now),
    chat: chat ? await loadWidgetChat(db, chat) : null,
    cursor,
    settings: {
      account_name: await storedAccountName(db, channel.account_id),
      color: typeof options.color === 'string' ? options.color : null,
      rules: parseJson<unknown>(settings.rules_json, null),
      callback_enabled: callbackOf(settings).enabled,
      callback_hours: { timezone: callbackOf(settings).timezone, hours: callbackOf(settings).hours },
      hide_launcher: options.hide_launcher === true,
      department_choice: choice,
      departments: choice === 'off' ? [] : await widgetDepartments(db, channel.account_id),
      appearance: readAppearance(channel),
    },
  };
}
