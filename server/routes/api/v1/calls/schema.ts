/** Request schemas of /api/v1/calls. */
import { Type, type Static } from '@sinclair/typebox';
import { PageQuery } from '../../../pagination.js';

export const CallListQuery = Type.Composite([
  PageQuery,
  Type.Object({
    status: Type.Optional(
      Type.Union([Type.Literal('start'), Type.Literal('agent_connected'), Type.Literal('client_connected'), Type.Literal('end'), Type.Literal('error')]),
    ),
  }),
]);
export type CallListQueryT = Static<typeof CallListQuery>;

export const CallStatusBody = Type.Object(
  {
    status: Type.Union([Type.Literal('agent_connected'), Type.Literal('client_connected'), Type.Literal('end'), Type.Literal('error')], {
      description: 'What happened: the agent is on the line, the visitor answered, the call ended, or it failed.',
    }),
    reason: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()], { description: 'With status error: why the call failed.' })),
    record_url: Type.Optional(
      Type.Union([Type.String({ maxLength: 2048 }), Type.Null()], { description: 'With status end: http(s) link to the recording (mp3).' }),
    ),
  },
  { additionalProperties: true },
);
export type CallStatusBodyT = Static<typeof CallStatusBody>;
