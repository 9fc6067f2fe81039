/** Request schemas of /api/v1/agents. Rules TypeBox cannot say (e-mail shape, trimming) are checked by the domain. */
import { Type, type Static } from '@sinclair/typebox';

const Role = Type.Union([Type.Literal('admin'), Type.Literal('agent')], { description: '"admin" may manage the account; "agent" answers chats.' });

export const CreateAgentBody = Type.Object(
  {
    name: Type.String({ maxLength: 200 }),
    email: Type.String({ maxLength: 320, description: 'Sign-in name; stored lower-cased, unique.' }),
    password: Type.Optional(
      Type.String({
        maxLength: 1024,
        description: 'At least 8 characters. Leave it out to invite the agent instead: a mail with a single-use link (72 h) to choose their own password.',
      }),
    ),
    role: Role,
    phone: Type.Optional(Type.Union([Type.String({ maxLength: 50 }), Type.Null()])),
  },
  { additionalProperties: true },
);
export type CreateAgentBodyT = Static<typeof CreateAgentBody>;

export const UpdateAgentBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 200 })),
    email: Type.Optional(
      Type.String({
        maxLength: 320,
        description:
          "The agent's new e-mail (its sign-in name), at once: stored lower-cased, unique (409 email_taken). Ends the agent's unused password links: send the invitation again if it had none yet.",
      }),
    ),
    role: Type.Optional(Role),
    phone: Type.Optional(Type.Union([Type.String({ maxLength: 50 }), Type.Null()], { description: 'null or "" clears it.' })),
    password: Type.Optional(Type.String({ maxLength: 1024, description: "At least 8 characters; revokes the agent's sessions unless it is your own." })),
    active: Type.Optional(Type.Boolean({ description: 'false deactivates the agent: its tokens are revoked and it goes offline.' })),
    department_ids: Type.Optional(
      Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 200, description: "The agent's departments, replacing the earlier ones; [] = none." }),
    ),
  },
  { additionalProperties: true },
);
export type UpdateAgentBodyT = Static<typeof UpdateAgentBody>;

export const LinkSentSchema = Type.Object({
  sent_to: Type.String({ description: "The agent's address the link was mailed to." }),
  expires_at: Type.Number({ description: 'When the link stops working (epoch ms).' }),
});
