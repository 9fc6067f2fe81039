/**
 * The chat channel's inbound body as a TypeBox schema, for /openapi.json
 * (docs/CHAT-CHANNEL.md describes the same). It documents; it does not
 * validate: the route reads any Content-Type as JSON and parseInbound applies
 * the rules with the channel's numeric error codes, keeping a message whose
 * optional field has a bad value (the field is dropped), which a schema
 * validator would refuse as a whole.
 */
import { Type } from '@sinclair/typebox';

const httpUrl = (description: string) => Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048, description });
const positiveInt = (description: string) => Type.Integer({ minimum: 1, description });
const coordinate = (limit: number, description: string) =>
  Type.Union([Type.Number({ minimum: -limit, maximum: limit }), Type.String({ description: 'a number written as a string is read as that number' })], {
    description,
  });

export const InboundSender = Type.Object(
  {
    id: Type.Union([Type.String({ minLength: 1, maxLength: 255 }), Type.Integer()], {
      description:
        'Required. The user in the customer system. Returned unchanged (same characters, same JSON type) as recipient.id in every message to the customer endpoint; visitors are matched by it exactly. Blank: 400 (1003).',
    }),
    name: Type.Optional(Type.String({ maxLength: 255, description: 'Shown to the agent; a later message may change it (chat_updated).' })),
    phone: Type.Optional(Type.String({ maxLength: 64, description: 'Shown to the agent; may change later.' })),
    email: Type.Optional(Type.String({ maxLength: 320, description: 'Shown to the agent; may change later.' })),
    photo: Type.Optional(httpUrl('Avatar link (128×128 px recommended); anything but an http(s) URL is dropped.')),
    url: Type.Optional(httpUrl('The page the user is on; anything but an http(s) URL is dropped.')),
    invite: Type.Optional(Type.String({ maxLength: 1000, description: 'Invitation text, shown to agents as context.' })),
  },
  { additionalProperties: true, description: 'Unknown fields are ignored.' },
);

const messageId = Type.Optional(
  Type.Union([Type.String({ maxLength: 200 }), Type.Number()], {
    description:
      'The message in the customer system. A retry with the same sender, id and content within 24 h is stored once; the same id with other content is another message.',
  }),
);
const text = (description: string) => Type.String({ maxLength: 1000, description: `${description} Longer text is cut at 1000 characters.` });

export const InboundText = Type.Object(
  { type: Type.Literal('text'), id: messageId, text: text('Required, not blank.') },
  { additionalProperties: true, title: 'Text message' },
);

export const InboundMedia = Type.Object(
  {
    type: Type.Union(['video', 'audio', 'voice', 'photo', 'sticker', 'document'].map((t) => Type.Literal(t))),
    id: messageId,
    file: httpUrl('Required: the http(s) URL of the file.'),
    file_name: Type.Optional(Type.String({ maxLength: 255, description: 'The name shown; optional.' })),
    file_size: Type.Optional(positiveInt('Bytes; optional.')),
    thumb: Type.Optional(httpUrl('A thumbnail image, 320 px wide.')),
    emoji: Type.Optional(Type.String({ maxLength: 16, description: 'A character that may stand in for the media.' })),
    duration: Type.Optional(positiveInt('Seconds.')),
    width: Type.Optional(positiveInt('Pixels.')),
    height: Type.Optional(positiveInt('Pixels.')),
    text: Type.Optional(text('A caption.')),
    performer: Type.Optional(Type.String({ maxLength: 255 })),
    title: Type.Optional(Type.String({ maxLength: 255 })),
  },
  { additionalProperties: true, title: 'Media message', description: 'An optional field with a bad value is dropped; the message is kept.' },
);

export const InboundLocation = Type.Object(
  {
    type: Type.Literal('location'),
    id: messageId,
    latitude: coordinate(90, 'Required: −90 to 90.'),
    longitude: coordinate(180, 'Required: −180 to 180.'),
  },
  { additionalProperties: true, title: 'Location message' },
);

export const InboundTyping = Type.Object(
  { type: Type.Union([Type.Literal('typein'), Type.Literal('typeout')]) },
  { additionalProperties: true, title: 'Typing', description: 'The user started (typein) or stopped (typeout) typing; every other field is ignored.' },
);

export const InboundBody = Type.Object(
  {
    sender: InboundSender,
    message: Type.Union([InboundText, InboundMedia, InboundLocation, InboundTyping]),
  },
  {
    additionalProperties: true,
    description:
      'Read as JSON whatever the Content-Type says (at most 256 KiB, 64 levels deep). Keys named __proto__ or constructor are ignored wherever they are. See docs/CHAT-CHANNEL.md.',
  },
);

export const ChatChannelError = Type.Object(
  {
    error: Type.Object({
      code: Type.Integer({
        description: 'A number from the error registry (docs/ERRORS.md): 1001 not JSON, 1003 no sender.id, 1004 a broken message, 1030 no channel.',
      }),
      message: Type.String({ description: 'What is wrong, in a sentence.' }),
    }),
  },
  { title: 'Chat channel error' },
);

export const Accepted = Type.Object({ result: Type.Literal('ok') }, { title: 'Accepted' });
