/**
 * JSON columns: parse leniently (a corrupt value reads as the fallback), write
 * compactly. Read as data: keys `__proto__` and `constructor` are dropped
 * (jsonData.ts), as they are from every body when it arrives.
 */
import { parseJsonData } from './jsonData.js';

export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (text === null || text === undefined || text === '') return fallback;
  try {
    return parseJsonData(text) as T;
  } catch {
    return fallback;
  }
}

export const toJson = (value: unknown): string => JSON.stringify(value);

export const bool = (v: boolean): 0 | 1 => (v ? 1 : 0);
