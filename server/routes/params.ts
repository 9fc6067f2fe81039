/**
 * The `:id` path parameter of resource routes. Path parameters arrive as
 * strings; anything that cannot be a row id (not digits, out of range) names
 * nothing, so it answers 404 like an unknown id.
 */
import { Type, type Static } from '@sinclair/typebox';
import { notFound } from '../errors/AppError.js';
import { MAX_ID } from './pagination.js';

export const IdParams = Type.Object({ id: Type.String({ description: 'Numeric id of the resource.' }) });
export type IdParamsT = Static<typeof IdParams>;

/** The numeric id, or 404 "<noun> <id> was not found." (noun: "Agent", "Channel", …). */
export function readId(params: IdParamsT, noun: string): number {
  const n = Number(params.id);
  if (!/^\d{1,10}$/.test(params.id) || n < 1 || n > MAX_ID) throw notFound(`${noun} ${params.id.slice(0, 40)}`);
  return n;
}
