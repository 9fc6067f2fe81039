/** Request schemas of /api/v1/auth. */
import { Type } from '@sinclair/typebox';

export const LoginBody = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: 320 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  { additionalProperties: true },
);
