/** Request schemas of /api/v1/chats. */
import { Type } from '@sinclair/typebox';
import { MAX_ID, PageQuery } from '../../../pagination.js';

export const ChatListQuery = Type.Composite([
  PageQuery,
  Type.Object({
    status: Type.Optional(Type.Union([Type.Literal('pending'), Type.Literal('active'), Type.Literal('finished')])),
    q: Type.Optional(Type.String({ maxLength: 200, description: 'Search: visitor name or e-mail, or message text (case-insensitive).' })),
  }),
]);

/** A spec message object (text or multimedia); the domain validates the type-specific rules. */
export const MessageBody = Type.Object(
  {
    type: Type.String({ description: 'text, video, audio, voice, photo, sticker, document or location' }),
    text: Type.Optional(Type.String()),
    file: Type.Optional(Type.String({ description: 'For media: the http(s) URL of the file (one from POST /api/v1/chats/:id/uploads, or a link).' })),
    file_name: Type.Optional(
      Type.String({
        description: 'For media: the name shown. Required unless file is an upload Parley stores (then its stored name when left out); missing: 400 naming it.',
      }),
    ),
    file_size: Type.Optional(
      Type.Integer({
        minimum: 1,
        description:
          "For media: the file's size in bytes. Required unless file is an upload Parley stores (then always its stored size); missing: 400 naming it.",
      }),
    ),
    thumb: Type.Optional(Type.String()),
    latitude: Type.Optional(Type.Number()),
    longitude: Type.Optional(Type.Number()),
    internal: Type.Optional(Type.Boolean({ description: 'A private note: shown to agents, never sent to the visitor.' })),
  },
  { additionalProperties: true },
);

export const ReadBody = Type.Union([
  Type.Object(
    {
      message_id: Type.Optional(
        Type.Integer({ minimum: 1, maximum: MAX_ID, description: "The last message the agent has seen (default: the chat's last message)." }),
      ),
    },
    { additionalProperties: true },
  ),
  Type.Null(),
]);

export const TypingBody = Type.Object({ typing: Type.Boolean() });

export const FinishBody = Type.Union([Type.Object({ blacklist: Type.Optional(Type.Boolean()) }), Type.Null()]);

export const TransferBody = Type.Object(
  {
    agent_id: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'The agent who takes the chat: active, of the account, working its channel.' }),
    ),
    department_id: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_ID,
        description: 'Instead of agent_id: the department the chat goes to; it waits there again (pending) for its agents (docs/ROUTING.md).',
      }),
    ),
  },
  { additionalProperties: true },
);
