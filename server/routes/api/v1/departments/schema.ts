/** Request schemas of /api/v1/departments. */
import { Type, type Static } from '@sinclair/typebox';

export const DepartmentBody = Type.Object(
  { name: Type.String({ maxLength: 200, description: 'Shown to agents; not empty.' }) },
  { additionalProperties: true },
);
export type DepartmentBodyT = Static<typeof DepartmentBody>;
