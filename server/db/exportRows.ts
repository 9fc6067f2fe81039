/**
 * The rows an export is made of, as the domain reads them (domain/export/accountRows.ts,
 * domain/visitors/visitorData.ts) and the presenters shape them (presenters/export.ts):
 * types only, below both.
 */
import type {
  Account,
  Agent,
  CannedResponse,
  Call,
  Channel,
  Chat,
  Delivery,
  Department,
  Message,
  OfflineMessage,
  StoredEvent,
  Upload,
  Visitor,
} from './schema.js';

/** One row of the export, tagged with what it is; channels and agents carry the links the API shows with them. */
export type AccountRow =
  | { type: 'account'; row: Account }
  | { type: 'agent'; row: Agent; departmentIds: number[] }
  | { type: 'department'; row: Department }
  | { type: 'channel'; row: Channel; agentIds: number[] }
  | { type: 'canned_response'; row: CannedResponse }
  | { type: 'visitor'; row: Visitor }
  | { type: 'chat'; row: Chat }
  | { type: 'message'; row: Message }
  | { type: 'call'; row: Call }
  | { type: 'offline_message'; row: OfflineMessage };

/** Everything held about one visitor (the right of access). */
export interface VisitorData {
  visitor: Visitor;
  chats: Chat[];
  messages: Message[];
  uploads: Upload[];
  calls: Call[];
  offlineMessages: OfflineMessage[];
  events: StoredEvent[];
  deliveries: Delivery[];
}
