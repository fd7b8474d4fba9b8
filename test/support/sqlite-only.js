// The end-to-end suites that do not depend on the database dialect: they run on SQLite (`npm test`) and are left out
// of the PostgreSQL and MySQL runs (`FLAGPOLE_TEST_DIALECT=…`, `.ci/run`). A suite belongs here when what it checks
// happens above storage (transport, HTTP and gRPC behaviour, authentication methods, authorization decisions, real
// clients and browsers, metrics, declarative files) and every storage call it makes is one the suites that do run on
// every dialect make too (management, evaluation loading and deltas, tokens, the audit trail, import and export,
// pagination, health, fuzzed input). Each dialect run then spends its time on what differs between databases.
// Plain JS: jest.config.js and the dialect report read it.
'use strict';

const SQLITE_ONLY = [
  // authentication methods and CSRF: the credential logic; their tokens are stored as test/auth/token's are
  'test/auth/csrf.e2e-spec.ts',
  'test/auth/github.e2e-spec.ts',
  'test/auth/jwt.e2e-spec.ts',
  'test/auth/kubernetes.e2e-spec.ts',
  'test/auth/login-csrf.e2e-spec.ts',
  'test/auth/oidc.e2e-spec.ts',
  // authorization: decisions are made in memory from the policy; the namespace list's filter stays on every dialect
  'test/authorization/method-bindings.e2e-spec.ts',
  'test/authorization/policy-reload.e2e-spec.ts',
  'test/authorization/route-matrix.e2e-spec.ts',
  // who may read flags' lifecycle: decisions above storage (what the routes read is tested on every dialect)
  'test/lifecycle/lifecycle-access.e2e-spec.ts',
  // real clients and wire details over the in-memory snapshots (loading them is tested on every dialect)
  'test/evaluation/clients-flipt-sdk.e2e-spec.ts',
  'test/evaluation/clients-local-engine.e2e-spec.ts',
  'test/evaluation/clients-openfeature.e2e-spec.ts',
  'test/evaluation/fast-path.e2e-spec.ts',
  'test/evaluation/request-format.e2e-spec.ts',
  'test/evaluation/snapshot-encoding.e2e-spec.ts',
  'test/ofrep/event-stream-limits.e2e-spec.ts',
  'test/ofrep/event-streams.e2e-spec.ts',
  'test/ofrep/ofrep-clients.e2e-spec.ts',
  'test/ofrep/ofrep.e2e-spec.ts',
  'test/ofrep/stream-tickets.e2e-spec.ts',
  // declarative storage reads files, not the database
  'test/flags-as-code/git-storage.e2e-spec.ts',
  'test/flags-as-code/local-storage.e2e-spec.ts',
  // reading import documents on their thread: above storage (what the import writes is tested on every dialect)
  'test/flags-as-code/import-reading-process.e2e-spec.ts',
  // audit delivery to webhooks and templates (the stored trail, test/audit/audit-trail, stays on every dialect)
  'test/audit/audit-sinks.e2e-spec.ts',
  // analytics read from Prometheus: the counts live in Prometheus, the database only says which flags exist
  'test/analytics/prometheus.e2e-spec.ts',
  // who may read analytics: decisions above storage (the counts' queries are tested on every dialect)
  'test/analytics/access.e2e-spec.ts',
  // the Redis Cluster link: the cache and change broadcast over a cluster, the same on every database
  'test/scale/redis-cluster.e2e-spec.ts',
  // transport, limits, headers and operations
  'test/ops/kubernetes-manifests.e2e-spec.ts',
  'test/ops/logging.e2e-spec.ts',
  'test/ops/meta.e2e-spec.ts',
  'test/ops/metrics-scrape.e2e-spec.ts',
  'test/ops/metrics-otlp.e2e-spec.ts',
  'test/ops/metrics.e2e-spec.ts',
  'test/security/cors.e2e-spec.ts',
  'test/security/csrf-paths.e2e-spec.ts',
  'test/security/evaluation-limits.e2e-spec.ts',
  'test/security/grpc-watch.e2e-spec.ts',
  'test/security/request-bodies.e2e-spec.ts',
  'test/security/response-headers.e2e-spec.ts',
  'test/security/transport.e2e-spec.ts',
  'test/swagger.e2e-spec.ts',
  // tracing: spans and their delivery above storage (the writes they wrap are tested on every dialect)
  'test/tracing/tracing-delivery.e2e-spec.ts',
  'test/tracing/tracing-otlp.e2e-spec.ts',
  // the OpenAPI document is built from the routes' DTOs, the same on every database
  'test/ui/api-types.e2e-spec.ts',
];

module.exports = { SQLITE_ONLY };
