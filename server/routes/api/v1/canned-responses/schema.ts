/** Request schemas of /api/v1/canned-responses; the domain checks the rules (shortcut form, lengths) with sentences of its own. */
import { Type, type Static } from '@sinclair/typebox';

const Shortcut = Type.String({
  maxLength: 64,
  description: 'What agents type after "/": 1 to 32 characters among a-z, 0-9, "_" and "-"; unique in the account.',
});
const Title = Type.String({ maxLength: 400, description: 'Shown in the picker; not empty, at most 200 characters.' });
const Text = Type.String({ maxLength: 4000, description: 'Inserted into the composer; not empty, at most 2000 characters.' });

export const CreateCannedResponseBody = Type.Object({ shortcut: Shortcut, title: Title, text: Text }, { additionalProperties: true });
export type CreateCannedResponseBodyT = Static<typeof CreateCannedResponseBody>;

export const UpdateCannedResponseBody = Type.Object(
  { shortcut: Type.Optional(Shortcut), title: Type.Optional(Title), text: Type.Optional(Text) },
  { additionalProperties: true },
);
export type UpdateCannedResponseBodyT = Static<typeof UpdateCannedResponseBody>;
