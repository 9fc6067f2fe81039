/**
 * A visitor's message carries one of its account's uploads: the upload is
 * attached to it (uploads.message_id), in the message's transaction, so the
 * upload sweeper keeps it for as long as the message exists. An upload is
 * attached to the first message that carries it; a file of another account,
 * or one without a row (stored before migration 016), is left as it is.
 */
import type { Tx } from '../../db/database.js';

export async function attachUpload(tx: Tx, input: { accountId: number; file: string; messageId: number }): Promise<void> {
  const name = new URL(input.file).pathname.split('/').pop() ?? '';
  await tx
    .updateTable('uploads')
    .set({ message_id: input.messageId })
    .where('name', '=', name)
    .where('account_id', '=', input.accountId)
    .where('message_id', 'is', null)
    .execute();
}
