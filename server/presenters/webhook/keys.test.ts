/**
 * docs/EVENTS.md says exactly which keys each event webhook sends, and when
 * one can be absent: its tables "Keys of every event" and "Keys of the
 * objects" equal keys.ts, and every body, built by the real presenters once
 * with everything known and once with nothing known, sends every documented
 * key (everything known), only the `always` ones (nothing known), and no
 * null but user_token and chat.rate. On a difference the failure says which
 * rows to add, remove or change.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bodyProblems, objectKeysSeen } from '../../../test/helpers/webhookBodies.js';
import type { Agent, Call, Channel, Chat, Message, Visitor } from '../../db/schema.js';
import {
  callEventBody,
  chatAcceptedBody,
  chatAssignedBody,
  chatFinishedBody,
  chatMissedBody,
  chatRatedBody,
  chatStartedBody,
  chatUpdatedBody,
  offlineMessageBody,
  visitorErasedBody,
  WEBHOOK_EVENT_NAMES,
  type ChatScope,
  type WebhookBodies,
  type WebhookEventName,
} from './events.js';
import { WEBHOOK_KEYS, WEBHOOK_OBJECT_KEYS } from './keys.js';

const doc = fs.readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/EVENTS.md'), 'utf8');

type Docs = Record<string, { doc: string; absent?: string }>;
const present = (d: { absent?: string }) => (d.absent ? `absent when ${d.absent}` : 'always');

function codeRows(table: Record<string, Docs>): string[] {
  return Object.entries(table).flatMap(([owner, keys]) => Object.entries(keys).map(([key, d]) => `| \`${owner}\` | \`${key}\` | ${present(d)} | ${d.doc} |`));
}

/** The rows of the table under `### <heading>`, cells trimmed. */
function docRows(heading: string): string[] {
  const section = (doc.split(new RegExp(`^### ${heading}\\s*$`, 'm'))[1] ?? '').split(/^#{2,3} /m)[0];
  return section
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /^\|\s*`/.test(line))
    .map(
      (line) =>
        `| ${line
          .replace(/^\||\|$/g, '')
          .split('|')
          .map((c) => c.trim())
          .join(' | ')} |`,
    );
}

function tableProblems(heading: string, inCode: string[]): string[] {
  const inDoc = docRows(heading);
  const problems: string[] = [];
  const missing = inCode.filter((row) => !inDoc.includes(row));
  if (missing.length > 0) problems.push(`Add (or correct) these rows of the table under "### ${heading}" in docs/EVENTS.md:\n${missing.join('\n')}`);
  const extra = inDoc.filter((row) => !inCode.includes(row));
  if (extra.length > 0) problems.push(`Remove these rows from "### ${heading}" (server/presenters/webhook/keys.ts has no such key):\n${extra.join('\n')}`);
  if (problems.length === 0 && inDoc.join('\n') !== inCode.join('\n'))
    problems.push(`Order the rows of "### ${heading}" as the code does:\n${inCode.join('\n')}`);
  return problems;
}

const T = 1_795_852_800_000;
const channel: Channel = {
  id: 1,
  account_id: 1,
  type: 'widget',
  name: 'Site',
  public_id: 'k3v9x2m1q8zt',
  secret: null,
  webhook_url: null,
  chunked: 0,
  options_json: '{}',
  appearance_json: '{}',
  created_at: T,
  updated_at: T,
};
const agent: Agent = {
  id: 3,
  account_id: 1,
  name: 'Bob',
  email: 'bob@example.com',
  password_hash: 'x',
  password_state: 'chosen',
  role: 'agent',
  phone: '+15550100100',
  language: null,
  photo_url: 'https://cdn.example.com/agents/3.png',
  status: 'online',
  active: 1,
  created_at: T,
  updated_at: T,
  chosen_status: null,
  notification_prefs_json: null,
  guide_dismissed_at: null,
  max_chats: null,
  last_offered_at: null,
};

function visitor(full: boolean): Visitor {
  const session = {
    ip: '203.0.113.7',
    user_agent: 'Mozilla/5.0',
    geoip: {
      region_code: 'BE',
      country: 'Germany',
      country_code: 'DE',
      region: 'Berlin',
      city: 'Berlin',
      latitude: '52.52',
      longitude: '13.40',
      organization: 'ACME',
    },
    utm: { source: 'news', medium: 'mail', campaign: 'spring', content: 'top', term: 'chat' },
    page: { url: 'https://shop.example.com/cart', title: 'Cart' },
    social: { twitter: 'ann' },
  };
  return {
    id: 7,
    account_id: 1,
    channel_id: 1,
    external_id: 'v-7',
    external_id_is_number: 0,
    number: 17,
    name: full ? 'Ann Lee' : null,
    email: full ? 'ann@example.com' : null,
    phone: full ? '+15550100199' : null,
    photo: null,
    url: null,
    invite: null,
    description: full ? 'VIP' : null,
    user_token: full ? 'crm-user-8812' : null,
    blacklisted: 0,
    token_hash: null,
    session_json: full ? JSON.stringify(session) : '{}',
    widget_contact_json: null,
    transcript_email: null,
    inbound_ids_reused: 0,
    chats_count: 2,
    created_at: T,
    updated_at: T,
  };
}

function scope(full: boolean): ChatScope {
  const chat: Chat = {
    id: 42,
    account_id: 1,
    channel_id: 1,
    visitor_id: 7,
    department_id: full ? 5 : null,
    status: 'finished',
    accepted_by: full ? 3 : null,
    agent_ids_json: full ? '[3]' : '[]',
    custom_data_json: '[]',
    contact_info_json: null,
    crm_link: null,
    enable_assign: 0,
    page_json: null,
    rate: full ? 'positive' : null,
    blacklisted: 0,
    last_seq: 1,
    created_at: T,
    accepted_at: null,
    missed_at: null,
    finished_at: null,
    updated_at: T,
    first_response_at: null,
    crm_custom_data_json: null,
    crm_page_json: null,
  };
  return { chat, visitor: visitor(full), channel, department: full ? { id: 5, name: 'Sales' } : null };
}

const message = (id: number, author: 'visitor' | 'agent', suppressed: 0 | 1): Message => ({
  id,
  account_id: 1,
  chat_id: 42,
  author,
  agent_id: author === 'agent' ? 3 : null,
  type: 'text',
  text: `text ${id}`,
  file: null,
  file_name: null,
  file_size: null,
  thumb: null,
  latitude: null,
  longitude: null,
  extra_json: null,
  external_id: null,
  internal: 0,
  suppressed,
  delivery_status: null,
  delivery_error: null,
  file_removed_at: null,
  created_at: T + id * 1000,
});

const call = (status: Call['status'], chat: boolean, withAgent: boolean): Call => ({
  id: 9,
  account_id: 1,
  channel_id: 1,
  chat_id: chat ? 42 : null,
  visitor_id: 7,
  agent_id: withAgent ? 3 : null,
  type: 'callback',
  phone: '+15550100199',
  status,
  reason: 'busy',
  record_url: 'https://rec.example.com/1.mp3',
  created_at: T,
  updated_at: T,
  ended_at: null,
  connected_at: null,
  duration_seconds: null,
  provider: 'agent_dialled',
});

const transcript = { text: '[10:00] Ann Lee: text 1', html: '<table></table>' };
const form = { id: 11, message: 'Call me', name: 'Ann Lee', email: 'ann@example.com', phone: '+15550100199' };

/** Each event's body with everything known (some events need two to show every key). */
const full: { [N in WebhookEventName]: Array<WebhookBodies[N]> } = {
  chat_accepted: [chatAcceptedBody(scope(true), agent)],
  chat_assigned: [chatAssignedBody(scope(true), agent, 'https://crm.example.com/card/7')],
  chat_updated: [chatUpdatedBody(scope(true), agent)],
  chat_finished: [chatFinishedBody(scope(true), [agent], [message(1, 'visitor', 0), message(2, 'agent', 0), message(3, 'visitor', 1)], transcript)],
  offline_message: [offlineMessageBody(channel, visitor(true), form)],
  call_event: [
    callEventBody(channel, scope(true), visitor(true), agent, call('error', true, true)),
    callEventBody(channel, scope(true), visitor(true), agent, call('end', true, true)),
  ],
  chat_started: [chatStartedBody(scope(true))],
  chat_missed: [chatMissedBody(scope(true), 5)],
  chat_rated: [chatRatedBody(scope(true), agent, 'negative')],
  visitor_erased: [visitorErasedBody(channel, { erasure_id: 3, visitor_number: 7, user_token: 'crm-42', sender_id: '42', sender_id_is_number: true })],
};

/** Each event's body with nothing known that may be unknown. */
const bare: { [N in WebhookEventName]: WebhookBodies[N] } = {
  chat_accepted: chatAcceptedBody(scope(false), agent),
  chat_assigned: chatAssignedBody(scope(false), agent, 'https://crm.example.com/card/7'),
  chat_updated: chatUpdatedBody(scope(false), null),
  chat_finished: chatFinishedBody(scope(false), [], [], { text: '', html: '' }),
  offline_message: offlineMessageBody(channel, null, { id: 12, message: 'Hi', name: null, email: null, phone: null }),
  call_event: callEventBody(channel, null, null, null, call('start', false, false)),
  chat_started: chatStartedBody(scope(false)),
  chat_missed: chatMissedBody(scope(false), 5),
  chat_rated: chatRatedBody(scope(false), null, 'positive'),
  visitor_erased: visitorErasedBody(channel, { erasure_id: 3, visitor_number: 7, user_token: null, sender_id: null, sender_id_is_number: false }),
};

describe('event webhook keys (docs/EVENTS.md)', () => {
  it('lists every key of every event, and when it can be absent', () => {
    const problems = tableProblems('Keys of every event', codeRows(WEBHOOK_KEYS));
    expect(problems, problems.join('\n\n')).toEqual([]);
  });

  it('lists every key of the objects inside, and when it can be absent', () => {
    const problems = tableProblems('Keys of the objects', codeRows(WEBHOOK_OBJECT_KEYS));
    expect(problems, problems.join('\n\n')).toEqual([]);
  });

  it.each(WEBHOOK_EVENT_NAMES)('%s sends every documented key when everything is known, only the `always` ones when nothing is', (name) => {
    const docs: Docs = WEBHOOK_KEYS[name];
    const bodies: object[] = full[name];
    for (const body of [...bodies, bare[name]]) expect(bodyProblems(body)).toEqual([]);
    expect(Object.keys(Object.assign({}, ...bodies)).sort()).toEqual(Object.keys(docs).sort());
    const always = Object.entries(docs)
      .filter(([, d]) => !d.absent)
      .map(([key]) => key);
    expect(Object.keys(bare[name]).sort()).toEqual(always.sort());
  });

  it('sends every documented key of every object in some body', () => {
    const seen = objectKeysSeen(Object.values(full).flat());
    const table: Record<string, Docs> = WEBHOOK_OBJECT_KEYS;
    for (const [object, keys] of Object.entries(table)) {
      expect([...(seen.get(object) ?? [])].sort(), object).toEqual(Object.keys(keys).sort());
    }
  });

  it('sends null only for user_token and chat.rate (spec C), and no agent, chat_id or page where there is none', () => {
    expect(bare.chat_updated).not.toHaveProperty('agent');
    expect(bare.call_event).not.toHaveProperty('chat_id');
    expect(bare.call_event).not.toHaveProperty('agent');
    expect(bare.chat_finished.user_token).toBeNull();
    expect(bare.chat_finished.chat.rate).toBeNull();
    const stored = { ...visitor(true), session_json: JSON.stringify({ geoip: { city: null, country: 'DE' }, social: { vk: null, fb: 'ann' } }) };
    const body = chatUpdatedBody({ ...scope(true), visitor: stored }, null);
    expect(bodyProblems(body)).toEqual([]);
    expect(body.session.geoip).toEqual({ country: 'DE' });
    expect(body.visitor.social).toEqual({ fb: 'ann' });
  });
});
