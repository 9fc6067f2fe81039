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

export const ThrottleSchema = Type.Object({
  id: Type.Number(),
  kind: Type.Union([Type.Literal('pair'), Type.Literal('source')], {
    description: '`pair`: failures of one e-mail from one address; `source`: failures from one address, whatever the e-mail.',
  }),
  address: Type.String({ description: 'The client address the failures came from.' }),
  email: Type.Union([Type.String(), Type.Null()], { description: 'The e-mail a pair names; null for a source.' }),
  failures: Type.Number({ description: 'Failures counted since the throttle started (forgotten a day after the last one).' }),
  first_failure_at: Type.Number(),
  last_failure_at: Type.Number(),
  blocked_until: Type.Union([Type.Number(), Type.Null()], {
    description: 'Sign-ins of this key are refused (429) until then; null when it does not wait now.',
  }),
  expires_at: Type.Number({ description: 'When the throttle is forgotten if nothing fails again.' }),
});

export const PasswordBody = Type.Object(
  {
    current_password: Type.String({ minLength: 1, maxLength: 1024 }),
    new_password: Type.String({ maxLength: 1024, description: 'At least 8 characters.' }),
  },
  { additionalProperties: true },
);
