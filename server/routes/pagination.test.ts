import { describe, expect, it } from 'vitest';
import { readPage } from './pagination.js';
import { describeSchemaErrors } from './validationMessage.js';

describe('readPage', () => {
  it('defaults to 100 from the newest', () => {
    expect(readPage({})).toEqual({ limit: 100, before: null });
    expect(readPage(undefined)).toEqual({ limit: 100, before: null });
  });

  it('reads limit 1…1000 and before', () => {
    expect(readPage({ limit: '1', before: '42' })).toEqual({ limit: 1, before: 42 });
    expect(readPage({ limit: '1000' })).toEqual({ limit: 1000, before: null });
    expect(readPage({ before: '99999999999' })).toEqual({ limit: 100, before: null });
  });

  it.each([
    { limit: '0' },
    { limit: '1001' },
    { limit: '-1' },
    { limit: '1e2' },
    { limit: '' },
    { limit: 'ten' },
    { before: '0' },
    { before: 'abc' },
    { before: '1.5' },
  ])('refuses %j with a sentence', (query) => {
    expect(() => readPage(query)).toThrow(/must be/);
  });
});

describe('describeSchemaErrors', () => {
  it('merges the branches of a union into one sentence per field', () => {
    const message = describeSchemaErrors(
      [
        { keyword: 'const', instancePath: '/role', schemaPath: '#/anyOf/0/const', params: { allowedValue: 'admin' }, message: 'must be equal to constant' },
        { keyword: 'const', instancePath: '/role', schemaPath: '#/anyOf/1/const', params: { allowedValue: 'agent' }, message: 'must be equal to constant' },
        { keyword: 'anyOf', instancePath: '/role', schemaPath: '#/anyOf', params: {}, message: 'must match a schema in anyOf' },
        { keyword: 'type', instancePath: '', schemaPath: '#/anyOf/1/type', params: { type: 'null' }, message: 'must be null' },
      ],
      'body',
    );
    expect(message).toBe('body/role must be one of "admin", "agent"');
  });
});
