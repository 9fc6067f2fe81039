/** Deutsch: the admin part. */
import type { Translated } from '../en';
import type { admin as en } from '../en/admin';

export const admin: Translated<typeof en> = {};
