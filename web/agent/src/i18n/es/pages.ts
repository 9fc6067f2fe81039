/** Español: the pages part. */
import type { Translated } from '../en';
import type { pages as en } from '../en/pages';

export const pages: Translated<typeof en> = {};
