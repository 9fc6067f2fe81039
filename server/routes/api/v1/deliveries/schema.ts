/** Request and response shapes of /api/v1/deliveries (the outgoing-request log). */
import { Type, type Static } from '@sinclair/typebox';
import { PageQuery } from '../../../pagination.js';

const Status = Type.Union(
  [Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed'), Type.Literal('paused'), Type.Literal('kept'), Type.Literal('cancelled')],
  {
    description: 'cancelled: an event webhook whose type an admin switched off (settings event_webhook_types) before it was sent.',
  },
);
const Kind = Type.Union([Type.Literal('chat_channel'), Type.Literal('event_webhook'), Type.Literal('mail'), Type.Literal('web_push')]);

export const ListDeliveriesQuery = Type.Composite(
  [
    PageQuery,
    Type.Object({
      status: Type.Optional(Status),
      kind: Type.Optional(Kind),
    }),
  ],
  { additionalProperties: true },
);
export type ListDeliveriesQueryT = Static<typeof ListDeliveriesQuery>;

const NullableNumber = (description?: string) => Type.Union([Type.Number(), Type.Null()], description ? { description } : {});
const NullableString = (description?: string) => Type.Union([Type.String(), Type.Null()], description ? { description } : {});

export const DeliverySchema = Type.Object({
  id: Type.Number(),
  kind: Kind,
  event_type: Type.String({ description: 'Spec event name (chat_accepted …) or the chat-channel kind (message, typein, typeout).' }),
  url: Type.String(),
  status: Status,
  attempts: Type.Number({ description: 'Attempts made in the current cycle (a redelivery starts a new one).' }),
  last_status_code: NullableNumber(),
  last_response: NullableString('The start of the last answer (at most 2000 characters).'),
  last_error: NullableString(),
  webhook_id: Type.String({ description: 'The Standard Webhooks webhook-id, the same on every attempt.' }),
  chat_id: NullableNumber(),
  message_id: NullableNumber(),
  created_at: Type.Number(),
  updated_at: Type.Number(),
  delivered_at: NullableNumber(),
  next_attempt_at: NullableNumber('When the next attempt is due; null unless pending.'),
});
