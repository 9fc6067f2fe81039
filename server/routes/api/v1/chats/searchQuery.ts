/**
 * GET /api/v1/chats/search: its querystring schema, and the reading of the
 * filters (querystrings arrive as strings) into the domain's ChatSearch, each
 * bad value refused with a 400 that names it.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { ChatSearch } from '../../../../domain/chats/searchChats.js';
import { invalid } from '../../../../errors/AppError.js';
import { MAX_ID, PageQuery, readPage } from '../../../pagination.js';

const id = (what: string) => Type.Optional(Type.String({ description: `Only chats of this ${what} (its id).` }));
const DATE = 'An ISO 8601 date (2025-11-27, UTC) or date-time (2025-11-27T09:00:00+01:00), or epoch milliseconds.';

export const ChatSearchQuery = Type.Composite([
  PageQuery,
  Type.Object({
    q: Type.Optional(
      Type.String({
        maxLength: 200,
        description:
          'Words to find: in message text (whole words; the last word, when 4 letters or fewer, also as the start of a word; "in double quotes" for a phrase), in the visitor\'s name or e-mail (anywhere), and as digits in the phone. Without q, the filters alone list chats.',
      }),
    ),
    channel_id: id('channel'),
    agent_id: id('agent (the one who held the chat last)'),
    department_id: id('department'),
    from: Type.Optional(Type.String({ description: `Chats created at or after this time. ${DATE}` })),
    to: Type.Optional(Type.String({ description: `Chats created before this time; a date alone includes that whole day. ${DATE}` })),
    rating: Type.Optional(
      Type.Union([Type.Literal('positive'), Type.Literal('negative'), Type.Literal('none')], { description: 'The visitor\'s rating; "none": not rated.' }),
    ),
    status: Type.Optional(Type.Union([Type.Literal('pending'), Type.Literal('active'), Type.Literal('finished')])),
  }),
]);
export type ChatSearchQueryT = Static<typeof ChatSearchQuery>;

function readIdFilter(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!/^\d{1,10}$/.test(raw) || n < 1 || n > MAX_ID) throw invalid(`${name} must be an id, a positive whole number (got "${raw.slice(0, 40)}").`);
  return n;
}

const DAY_MS = 86_400_000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

function readTime(name: 'from' | 'to', raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  let ms = Number.NaN;
  if (/^\d{1,15}$/.test(raw)) ms = Number(raw);
  else if (DATE_ONLY.test(raw)) ms = Date.parse(`${raw}T00:00:00Z`) + (name === 'to' ? DAY_MS : 0);
  else if (DATE_TIME.test(raw)) ms = Date.parse(raw);
  if (!Number.isFinite(ms))
    throw invalid(`${name} must be a date like 2025-11-27, a date-time like 2025-11-27T09:00:00Z, or epoch milliseconds (got "${raw.slice(0, 40)}").`);
  return ms;
}

export function readChatSearch(query: ChatSearchQueryT): ChatSearch {
  return {
    q: query.q,
    channelId: readIdFilter('channel_id', query.channel_id),
    agentId: readIdFilter('agent_id', query.agent_id),
    departmentId: readIdFilter('department_id', query.department_id),
    from: readTime('from', query.from),
    to: readTime('to', query.to),
    rating: query.rating,
    status: query.status,
    page: readPage(query),
  };
}
