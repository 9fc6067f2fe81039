/**
 * Every key of every event webhook body, and of the objects inside, with when
 * it can be absent. docs/EVENTS.md lists the same two tables ("Keys of every
 * event", "Keys of the objects"); keys.test.ts keeps them equal and builds
 * each body to check it sends exactly these keys. The compiler wants an entry
 * for each key of the body types (types.ts, objects.ts) and no other, with
 * `absent` exactly when the type lets the key be missing.
 */
import type { WebhookAgent, WebhookGeoip, WebhookPage, WebhookSession, WebhookUtm, WebhookVisitor } from './objects.js';
import type { WebhookBodies, WebhookCall, WebhookEventName, WebhookFinishedChat, WebhookTranscriptItem } from './types.js';

/** One key: what it holds, and (only for a key that may be missing) when it is absent. */
type KeyDoc<V> = undefined extends V ? { readonly doc: string; readonly absent: string } : { readonly doc: string; readonly absent?: never };

type KeysOf<T> = { readonly [K in keyof Required<T>]: KeyDoc<T[K]> };

const common = {
  event_name: { doc: 'the event type' },
  widget_id: { doc: "the channel's public id (widget id, or the chat channel's `CHANNEL_PUBLIC_ID`)" },
  user_token: { doc: 'what the page set with `svc_api.setUserToken`; `null` when it set none' },
  visitor: { doc: 'the visitor (object)' },
  session: { doc: "the visitor's browser session (object; empty values for chat-channel visitors)" },
  page: { doc: 'the page the visitor is on (object)', absent: 'the page is not known (chat-channel visitors)' },
  department: { doc: "the chat's department (object)", absent: 'the chat has none' },
} as const;

const chatId = { doc: "the chat's `id` in the API (a number)" } as const;

/** The top-level keys of each event. */
export const WEBHOOK_KEYS: { readonly [N in WebhookEventName]: KeysOf<WebhookBodies[N]> } = {
  chat_accepted: { ...common, chat_id: chatId, agent: { doc: 'the agent who pressed Reply' } },
  chat_assigned: {
    ...common,
    chat_id: chatId,
    agent: { doc: 'the agent who bound the chat' },
    assign_to: { doc: 'the `crm_link` of the chat_accepted answer' },
  },
  chat_updated: { ...common, chat_id: chatId, agent: { doc: 'the agent who accepted the chat', absent: 'no agent accepted the chat yet' } },
  chat_finished: {
    ...common,
    chat_id: chatId,
    agents: { doc: 'the agents who worked the chat, in the order they joined (array, may be empty)' },
    chat: { doc: '`messages`, `rate`, `blacklisted` (object)' },
    plain_messages: { doc: 'the transcript as plain text, one `[HH:MM] who: text` line per message (`""` for none)' },
    html_messages: { doc: 'the same transcript as an HTML table, every value escaped (`""` for none)' },
  },
  offline_message: {
    event_name: common.event_name,
    widget_id: common.widget_id,
    user_token: common.user_token,
    visitor: { doc: 'the visitor, with the name, e-mail and phone typed into the form (object)' },
    session: common.session,
    page: common.page,
    offline_message_id: { doc: "the offline message's id (a string)" },
    message: { doc: 'the text of the form' },
  },
  call_event: {
    ...common,
    chat_id: { doc: "the chat's `id` in the API", absent: 'the call has no chat' },
    agent: { doc: 'the agent handling the call', absent: 'no agent took the call yet' },
    call: { doc: '`type`, `phone`, `status`, `reason`, `record_url` (object)' },
  },
  chat_started: { ...common, chat_id: chatId },
  chat_missed: {
    ...common,
    chat_id: chatId,
    waited_minutes: { doc: "the whole minutes from the chat's start until it was missed (no agent had answered by then)" },
  },
  chat_rated: {
    ...common,
    chat_id: chatId,
    agent: { doc: 'the agent who accepted the chat', absent: 'no agent accepted the chat yet' },
    rate: { doc: '`positive` or `negative`' },
  },
  visitor_erased: {
    event_name: common.event_name,
    widget_id: common.widget_id,
    user_token: { doc: 'the user token the page had set for the erased visitor; `null` when none' },
    visitor_number: { doc: "the erased visitor's number (a string, the `visitor.number` of its earlier events)" },
    sender_id: { doc: "the chat channel's `sender.id` of the erased visitor, as it arrived (string or number)", absent: 'the visitor came through the widget' },
    erasure_id: { doc: 'the erasure, `GET /api/v1/erasures/:id` (a number)' },
  },
};

/** The keys of the objects inside the bodies, by where they sit (`chat.messages[]`: each item of the array). */
export interface WebhookObjects {
  visitor: WebhookVisitor;
  session: WebhookSession;
  'session.geoip': WebhookGeoip;
  'session.utm_json': WebhookUtm;
  page: WebhookPage;
  department: { id: number; name: string };
  agent: WebhookAgent;
  'agents[]': WebhookAgent;
  call: WebhookCall;
  chat: WebhookFinishedChat;
  'chat.messages[]': WebhookTranscriptItem;
}

const when = (what: string) => `${what} is not known`;
const agentKeys: KeysOf<WebhookAgent> = {
  id: { doc: "the agent's id (a number)" },
  name: { doc: "the agent's name" },
  email: { doc: "the agent's e-mail" },
  phone: { doc: "the agent's phone", absent: 'the agent set none' },
  photo: { doc: "the agent's photo: an http(s) link, or the URL of the picture the agent uploaded", absent: 'the agent set none' },
};

export const WEBHOOK_OBJECT_KEYS: { readonly [O in keyof WebhookObjects]: KeysOf<WebhookObjects[O]> } = {
  visitor: {
    name: { doc: "the visitor's name", absent: when('the name') },
    email: { doc: "the visitor's e-mail", absent: when('the e-mail') },
    phone: { doc: "the visitor's phone", absent: when('the phone') },
    number: { doc: "the visitor's number (a string)" },
    description: { doc: 'what the visitor or the page said about him (`""` when nothing)' },
    social: { doc: "the visitor's social networks (object)", absent: 'none are known' },
    chats_count: { doc: "the number of the visitor's chats" },
  },
  session: {
    geoip: { doc: 'where the address is (object; `{}` when unknown)' },
    utm: { doc: 'deprecated: `utm_json` as a query string (`""` when none)' },
    utm_json: { doc: "the page's utm_ parameters (object; `{}` when none)" },
    ip_addr: { doc: 'the visitor\'s address (`""` for chat-channel visitors)' },
    user_agent: { doc: 'the visitor\'s browser (`""` for chat-channel visitors)' },
  },
  'session.geoip': {
    region_code: { doc: 'region code', absent: when('the place') },
    country: { doc: 'country name', absent: when('the place') },
    country_code: { doc: 'ISO country code', absent: when('the place') },
    region: { doc: 'region name', absent: when('the place') },
    city: { doc: 'city', absent: when('the place') },
    latitude: { doc: 'latitude (a string)', absent: when('the place') },
    longitude: { doc: 'longitude (a string)', absent: when('the place') },
    organization: {
      doc: "the organization holding the address's network (its autonomous system), from the RouteViews and DB-IP tables shipped with Parley: for example `Google LLC`",
      absent: "the address's network is not known (private addresses, chat-channel visitors)",
    },
  },
  'session.utm_json': {
    source: { doc: 'utm_source', absent: 'the page had none' },
    medium: { doc: 'utm_medium', absent: 'the page had none' },
    campaign: { doc: 'utm_campaign', absent: 'the page had none' },
    content: { doc: 'utm_content', absent: 'the page had none' },
    term: { doc: 'utm_term', absent: 'the page had none' },
  },
  page: { url: { doc: "the page's URL" }, title: { doc: "the page's title", absent: when('the title') } },
  department: { id: { doc: "the department's id (a number)" }, name: { doc: "the department's name" } },
  agent: agentKeys,
  'agents[]': agentKeys,
  call: {
    type: { doc: '`callback`, `incoming` or `outgoing`' },
    phone: { doc: 'the phone number (E.164)' },
    status: { doc: '`start`, `agent_connected`, `client_connected`, `end` or `error`' },
    reason: { doc: 'why the call failed', absent: 'the status is not `error`, or no reason was given' },
    record_url: { doc: 'link to the recording', absent: 'the status is not `end`, or there is no recording' },
  },
  chat: {
    messages: { doc: 'the messages, private notes left out (array)' },
    rate: { doc: '`positive`, `negative`, or `null` when the visitor did not rate (the one null besides `user_token`)' },
    blacklisted: { doc: 'the visitor was added to the black list (boolean)' },
  },
  'chat.messages[]': {
    timestamp: { doc: 'when the message was received, Unix seconds' },
    type: { doc: '`visitor` or `agent`' },
    message: { doc: 'the text; a file message: its URL (after its caption, on a new line, when it has one)' },
    agent_id: { doc: 'the agent who wrote it', absent: 'a visitor wrote it' },
    blacklisted: { doc: '`true`: a blacklisted visitor wrote it and no agent saw it', absent: 'the message was shown' },
  },
};

/** Where a null may be sent: the spec names these two. */
export const NULL_ALLOWED = ['user_token', 'chat.rate'] as const;
