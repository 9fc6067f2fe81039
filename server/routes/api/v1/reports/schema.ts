/** Request and response schemas of /api/v1/reports (they make the OpenAPI document). */
import { Type, type Static, type TSchema } from '@sinclair/typebox';

export const ReportQuery = Type.Object(
  {
    from: Type.String({ description: 'First day of the range, YYYY-MM-DD, in the report time zone.' }),
    to: Type.String({ description: 'Last day of the range (included), YYYY-MM-DD; at most 400 days after from.' }),
    timezone: Type.Optional(Type.String({ description: "IANA time zone of days and hours (default: the account's, the zone of its callback hours)." })),
    interval: Type.Optional(
      Type.String({ description: 'Buckets: day or hour (hour: ranges of at most 31 days). Default: hour for one or two days, else day.' }),
    ),
    channel_id: Type.Optional(Type.String({ description: 'Only chats of this channel.' })),
    department_id: Type.Optional(Type.String({ description: 'Only chats of this department.' })),
    agent_id: Type.Optional(Type.String({ description: 'Only chats accepted by this agent (agents: their own id only).' })),
  },
  { additionalProperties: true },
);
export type ReportQueryT = Static<typeof ReportQuery>;

const Nullable = (t: TSchema) => Type.Union([t, Type.Null()]);
const Id = Nullable(Type.Integer());

const Range = Type.Object({
  from: Type.String(),
  to: Type.String(),
  timezone: Type.String(),
  interval: Type.Union([Type.Literal('day'), Type.Literal('hour')]),
  channel_id: Id,
  department_id: Id,
  agent_id: Id,
  previous_from: Type.String({ description: 'The previous period of the same length, compared with.' }),
  previous_to: Type.String(),
});

const Bucket = {
  key: Type.Number(),
  label: Type.String({ description: 'Local day (YYYY-MM-DD) or local hour (YYYY-MM-DDTHH:MM).' }),
  start: Type.String({ description: 'UTC instant the bucket starts (ISO 8601).' }),
};

const ChatCounts = {
  started: Type.Integer(),
  accepted: Type.Integer(),
  missed: Type.Integer({ description: 'Finished without any reply of an agent.' }),
  offline_messages: Type.Integer(),
  callbacks: Type.Integer(),
};

const Seconds = Nullable(Type.Number());
const TimeFigures = Type.Object({ count: Type.Integer(), average_s: Seconds, median_s: Seconds, p90_s: Seconds });
const ResponseTimes = { first_response: TimeFigures, duration: TimeFigures };
const RatingCounts = { positive: Type.Integer(), negative: Type.Integer(), positive_share: Nullable(Type.Number()) };

export const ChatsReportSchema = Type.Object({
  range: Range,
  series: Type.Array(Type.Object({ ...Bucket, ...ChatCounts })),
  totals: Type.Object(ChatCounts),
  previous: Type.Object(ChatCounts),
  by_channel: Type.Array(Type.Object({ channel_id: Type.Integer(), ...ChatCounts })),
});

export const ResponseTimesReportSchema = Type.Object({
  range: Range,
  series: Type.Array(Type.Object({ ...Bucket, ...ResponseTimes })),
  totals: Type.Object(ResponseTimes),
  previous: Type.Object(ResponseTimes),
});

export const RatingsReportSchema = Type.Object({
  range: Range,
  series: Type.Array(Type.Object({ ...Bucket, ...RatingCounts })),
  totals: Type.Object(RatingCounts),
  previous: Type.Object(RatingCounts),
  by_agent: Type.Array(Type.Object({ agent_id: Type.Integer(), ...RatingCounts })),
});

export const AgentsReportSchema = Type.Object({
  range: Range,
  agents: Type.Array(
    Type.Object({
      agent_id: Type.Integer(),
      name: Type.String(),
      chats_handled: Type.Integer(),
      first_response: TimeFigures,
      online_s: Type.Integer(),
      away_s: Type.Integer(),
      average_concurrency: Nullable(Type.Number()),
      ...RatingCounts,
    }),
  ),
});

export const BusiestHoursReportSchema = Type.Object({
  range: Range,
  grid: Type.Array(Type.Array(Type.Integer()), { description: '7 rows, Monday first, of 24 counts of chats started, by local hour.' }),
  max: Type.Integer(),
  total: Type.Integer(),
});
