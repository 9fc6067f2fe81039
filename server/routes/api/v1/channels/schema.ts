/**
 * Request schemas of /api/v1/channels. One object for both channel types
 * (clearer errors than a union): the domain refuses fields of the other type
 * and checks URLs, colours and host names with sentences of its own.
 */
import { Type, type Static } from '@sinclair/typebox';
import { MAX_ID } from '../../../pagination.js';
import { WIDGET_LANGUAGES } from '../../../../../protocol/widget.js';

const Name = Type.String({ maxLength: 200, description: 'Shown to agents.' });
const WebhookUrl = Type.String({
  maxLength: 2048,
  description: 'chat_api: http(s) URL agent replies are POSTed to, as webhook_url + "/" + public_id.',
});
const Chunked = Type.Boolean({ description: 'chat_api: send replies with Transfer-Encoding: chunked (default false).' });
const AgentIds = Type.Union([Type.Array(Type.Integer({ minimum: 1, maximum: MAX_ID }), { maxItems: 1000 }), Type.Null()], {
  description: "Agents who receive the channel's chats; empty or null = every agent of the account.",
});
const Color = Type.Union([Type.String({ maxLength: 20 }), Type.Null()], { description: 'widget: #rrggbb.' });
const IdentityVerification = Type.Boolean({
  description:
    'widget: true issues an identity secret (kept if there is one) and setUserToken then needs hex HMAC-SHA256(token, secret) as its signature; false removes it.',
});
const AllowedDomains = Type.Union([Type.Array(Type.String({ maxLength: 260 }), { maxItems: 100 }), Type.Null()], {
  description: 'widget: host names the widget may be embedded on (example.com, *.example.com); empty = any.',
});

const HideLauncher = Type.Boolean({
  description: 'widget: true hides the default launcher (the page opens the chat from its own button with svc_api.open()); default false.',
});
const Enabled = Type.Boolean({
  description: 'widget: false turns the widget off: pages including it show nothing, and open ones get svc_onWidgetDestroy within seconds; default true.',
});

const text = (max: number, what: string) =>
  Type.Optional(
    Type.Union([Type.String({ maxLength: max + 100 }), Type.Null()], { description: `${what} (at most ${max} characters); null = the translated default.` }),
  );
const Appearance = Type.Object(
  {
    title: text(60, "The window's title while no agent has taken the chat"),
    greeting: text(500, 'Shown as the first message when the window opens on no chat'),
    away_text: text(200, 'The status line under the title while nobody is online'),
    offline_text: text(500, "The offline form's text"),
    launcher_text: text(40, "The launcher's text"),
    position: Type.Optional(
      Type.Union([Type.Literal('right'), Type.Literal('left')], { description: 'The page corner of the launcher and the window (default right).' }),
    ),
    offset_x: Type.Optional(Type.Integer({ minimum: 0, maximum: 200, description: 'Pixels from that side (default 16).' })),
    offset_y: Type.Optional(Type.Integer({ minimum: 0, maximum: 200, description: 'Pixels from the bottom (default 16).' })),
    launcher: Type.Optional(
      Type.Union([Type.Literal('label'), Type.Literal('button')], { description: '`label`: a button with text (default); `button`: a round icon button.' }),
    ),
    logo: Type.Optional(
      Type.Union([Type.String({ maxLength: 500 }), Type.Null()], { description: 'https URL of a picture shown in the header; null = none.' }),
    ),
    language: Type.Optional(
      Type.Union([Type.Literal('auto'), ...WIDGET_LANGUAGES.map((l) => Type.Literal(l))], {
        description: "`auto` (the first of the browser's languages the widget speaks, else English) or a fixed language.",
      }),
    ),
  },
  { additionalProperties: false, description: 'widget: how the widget looks and speaks; only the fields sent change.' },
);

export const CreateChannelBody = Type.Object(
  {
    type: Type.Union([Type.Literal('chat_api'), Type.Literal('widget')]),
    name: Name,
    webhook_url: Type.Optional(Type.Union([WebhookUrl, Type.Null()])),
    chunked: Type.Optional(Chunked),
    agent_ids: Type.Optional(AgentIds),
    color: Type.Optional(Color),
    allowed_domains: Type.Optional(AllowedDomains),
    identity_verification: Type.Optional(IdentityVerification),
    hide_launcher: Type.Optional(HideLauncher),
    enabled: Type.Optional(Enabled),
    appearance: Type.Optional(Appearance),
  },
  { additionalProperties: true },
);
export type CreateChannelBodyT = Static<typeof CreateChannelBody>;

export const UpdateChannelBody = Type.Object(
  {
    name: Type.Optional(Name),
    webhook_url: Type.Optional(Type.Union([WebhookUrl, Type.Null()])),
    chunked: Type.Optional(Chunked),
    agent_ids: Type.Optional(AgentIds),
    color: Type.Optional(Color),
    allowed_domains: Type.Optional(AllowedDomains),
    rotate_secret: Type.Optional(Type.Boolean({ description: 'chat_api: true issues a new path secret; the old endpoint URL stops working.' })),
    identity_verification: Type.Optional(IdentityVerification),
    rotate_identity_secret: Type.Optional(
      Type.Boolean({ description: 'widget: true issues a new identity secret (verification must be on); signatures made with the old one stop working.' }),
    ),
    hide_launcher: Type.Optional(HideLauncher),
    enabled: Type.Optional(Enabled),
    appearance: Type.Optional(Appearance),
  },
  { additionalProperties: true },
);
export type UpdateChannelBodyT = Static<typeof UpdateChannelBody>;
