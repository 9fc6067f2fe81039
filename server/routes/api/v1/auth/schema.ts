/** Request schemas of /api/v1/auth. */
import { Type } from '@sinclair/typebox';

export const ForgotPasswordBody = Type.Object({ email: Type.String({ minLength: 1, maxLength: 320 }) }, { additionalProperties: true });

export const PasswordLinkQuery = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200, description: 'The token of the link in the mail.' }) },
  { additionalProperties: true },
);

export const PasswordLinkSchema = Type.Object({
  kind: Type.Union([Type.Literal('invite'), Type.Literal('reset')]),
  name: Type.String(),
  email: Type.String(),
  expires_at: Type.Number(),
});

export const SetPasswordBody = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 200 }),
    password: Type.String({ maxLength: 1024, description: 'At least 8 characters.' }),
  },
  { additionalProperties: true },
);

export const LoginBody = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: 320 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  { additionalProperties: true },
);
