/**
 * The company's name (accounts.name): set by an administrator in Admin →
 * Settings (PUT /settings `account_name`) or on the first sign-in, and used
 * wherever Parley speaks for the business: mail subjects and the "Sent by …
 * for …" line, the From display name, transcripts, the widget's default
 * title, the agent app's header. Empty means not set yet: "Parley" stands in.
 */
import type { Executor } from '../../db/database.js';
import { invalid } from '../../errors/AppError.js';

export const ACCOUNT_NAME_MAX = 100;
export const FALLBACK_ACCOUNT_NAME = 'Parley';

/** The name to show: the account's, or "Parley" while it is empty. */
export const shownAccountName = (name: string | null | undefined): string => {
  const trimmed = (name ?? '').trim();
  return trimmed === '' ? FALLBACK_ACCOUNT_NAME : trimmed;
};

/** Trimmed, at most ACCOUNT_NAME_MAX characters, one line; "" (or null) clears it. */
export function cleanAccountName(value: string | null): string {
  const name = (value ?? '').trim();
  if (name.length > ACCOUNT_NAME_MAX) throw invalid(`account_name must have at most ${ACCOUNT_NAME_MAX} characters (got ${name.length}).`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) throw invalid('account_name must be one line, without control characters.');
  return name;
}

/** The account's stored name ("" when not set). */
export async function storedAccountName(db: Executor, accountId: number): Promise<string> {
  const row = await db.selectFrom('accounts').select('name').where('id', '=', accountId).executeTakeFirst();
  return row?.name ?? '';
}

/** The account's name as mails and screens show it. */
export async function accountNameOf(db: Executor, accountId: number): Promise<string> {
  return shownAccountName(await storedAccountName(db, accountId));
}
