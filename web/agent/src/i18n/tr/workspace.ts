/** Türkçe: the workspace part. */
import type { Translated } from '../en';
import type { workspace as en } from '../en/workspace';

export const workspace: Translated<typeof en> = {};
