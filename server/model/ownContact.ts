/**
 * The contact details a widget visitor gave itself (visitors.widget_contact_json,
 * migration 020), apart from the visitor's name, e-mail and phone columns that
 * a chat_accepted answer's contact_info (a CRM's data) may also write. The
 * widget shows back only these, and mails a transcript only to this e-mail
 * (#15 item 10, docs/SECURITY.md §10): a visitor can claim any user token
 * unless identity verification is on, and must not learn what the CRM knows
 * of the person it claims to be.
 */
import { parseJson } from '../lib/json.js';
import type { Visitor, VisitorsTable } from '../db/schema.js';

export type OwnContact = Partial<Pick<VisitorsTable, 'name' | 'email' | 'phone' | 'description'>>;

const KEYS = ['name', 'email', 'phone', 'description'] as const;

/** The details the visitor gave, each a non-empty string; {} when none. */
export function readOwnContact(v: Pick<Visitor, 'widget_contact_json'>): OwnContact {
  const parsed = parseJson<unknown>(v.widget_contact_json, null);
  const out: OwnContact = {};
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return out;
  const record = parsed as Record<string, unknown>;
  for (const key of KEYS) {
    const value = record[key];
    if (typeof value === 'string' && value !== '') out[key] = value;
  }
  return out;
}
