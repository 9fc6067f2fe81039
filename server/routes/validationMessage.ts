/**
 * A Fastify schemaErrorFormatter whose messages read as one sentence. A
 * TypeBox union becomes `anyOf`, and ajv then reports every failed branch
 * ("must be equal to constant, must be equal to constant, must match a schema
 * in anyOf"); this merges them per field into "body/role must be one of
 * "admin", "agent"" or "body/color must be string or null", and keeps only
 * the deepest fields (the outer anyOf failures only repeat them).
 * Routes opt in with `{ schemaErrorFormatter: readableSchemaErrors }`.
 */
import type { FastifySchemaValidationError } from 'fastify';

interface Field {
  types: string[];
  allowed: unknown[];
  other: string[];
}

export function describeSchemaErrors(errors: FastifySchemaValidationError[], dataVar: string): string {
  const fields = new Map<string, Field>();
  for (const e of errors) {
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf') continue;
    const path = `${dataVar}${e.instancePath}`;
    const field = fields.get(path) ?? { types: [], allowed: [], other: [] };
    const params = e.params as { type?: unknown; allowedValue?: unknown; allowedValues?: unknown };
    if (e.keyword === 'type' && typeof params.type === 'string') field.types.push(params.type);
    else if (e.keyword === 'const') field.allowed.push(params.allowedValue);
    else if (e.keyword === 'enum' && Array.isArray(params.allowedValues)) field.allowed.push(...(params.allowedValues as unknown[]));
    else field.other.push(e.message ?? 'is not valid');
    fields.set(path, field);
  }
  const paths = [...fields.keys()];
  const deepest = paths.filter((p) => !paths.some((q) => q !== p && q.startsWith(`${p}/`)));
  const sentences = deepest.map((path) => {
    const f = fields.get(path)!;
    const parts = [...f.other];
    // A constraint failure means the value had the right type for that branch: other branches' types are noise.
    if (f.allowed.length > 0) parts.push(`must be one of ${f.allowed.map((v) => JSON.stringify(v)).join(', ')}`);
    else if (f.types.length > 0 && parts.length === 0) parts.push(`must be ${[...new Set(f.types)].join(' or ')}`);
    return `${path} ${[...new Set(parts)].join(' and ')}`;
  });
  return sentences.length > 0 ? sentences.join('; ') : `${dataVar} does not match the expected shape`;
}

export function readableSchemaErrors(errors: FastifySchemaValidationError[], dataVar: string): Error {
  return new Error(describeSchemaErrors(errors, dataVar));
}
