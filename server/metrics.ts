/** Prometheus metrics of one process, on a registry of its own (several apps may share a test process). */
import client from 'prom-client';

export interface Metrics {
  readonly registry: client.Registry;
  readonly httpDuration: client.Histogram<'method' | 'route' | 'status'>;
  readonly deliveries: client.Counter<'kind' | 'outcome'>;
  readonly sockets: client.Gauge<'kind'>;
  readonly groupCommit: client.Histogram<'writer' | 'outcome'>;
  readonly retentionDeleted: client.Counter<'table'>;
  readonly socketRefusals: client.Counter<'bound'>;
  readonly availabilityChecks: client.Counter;
}

export function createMetrics(): Metrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: 'parley_' });
  return {
    registry,
    httpDuration: new client.Histogram({
      name: 'parley_http_request_duration_seconds',
      help: 'HTTP request duration by route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    deliveries: new client.Counter({
      name: 'parley_outbound_deliveries_total',
      help: 'Outbound delivery attempts by kind and outcome',
      labelNames: ['kind', 'outcome'],
      registers: [registry],
    }),
    sockets: new client.Gauge({
      name: 'parley_open_sockets',
      help: 'Open realtime sockets by kind',
      labelNames: ['kind'],
      registers: [registry],
    }),
    groupCommit: new client.Histogram({
      name: 'parley_group_commit_batch_size',
      help: 'Jobs written per group-commit transaction, by writer and outcome (a failed batch is written again job by job)',
      labelNames: ['writer', 'outcome'],
      buckets: [1, 2, 4, 8, 16, 32, 64],
      registers: [registry],
    }),
    retentionDeleted: new client.Counter({
      name: 'parley_retention_deleted_rows_total',
      help: 'Rows the retention worker deleted, by table (server/retention/)',
      labelNames: ['table'],
      registers: [registry],
    }),
    socketRefusals: new client.Counter({
      name: 'parley_socket_refusals_total',
      help: 'WebSockets refused (closed 4429) beyond a bound, by bound: address, visitor, agent_token',
      labelNames: ['bound'],
      registers: [registry],
    }),
    availabilityChecks: new client.Counter({
      name: 'parley_availability_checks_total',
      help: "Queries of a channel's availability for visitor sockets after agent changes (one per event and channel, however many sockets)",
      registers: [registry],
    }),
  };
}
