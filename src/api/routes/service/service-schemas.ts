/** The service routes' schemas: health, key verification and the OpenAPI document. */
import { Type } from "typebox";

export const ERROR_CLASSES = [
  "dns",
  "refused",
  "timeout",
  "network",
  "venue_unavailable",
  "venue_http_4xx",
  "venue_http_5xx",
  "venue_shape",
  "rpc_error",
  "malformed_record",
  "store",
  "other",
] as const;
export const SourceStatus = Type.Object({
  source: Type.String(),
  status: Type.Union([Type.Literal("syncing"), Type.Literal("following"), Type.Literal("waiting")]),
  first_sync_done: Type.Boolean(),
  lag_seconds: Type.Union([Type.Integer(), Type.Null()], { description: "seconds since the source last advanced" }),
  errors: Type.Integer({ description: "malformed records skipped and failed requests" }),
  waiting: Type.Integer({
    description:
      "work the source holds back: chain-logs, records of markets Gamma does not list yet (stored, added once it does); wallet-sync, wallets whose sync was asked for and has not run",
  }),
  last_error_class: Type.Union([Type.Enum(ERROR_CLASSES), Type.Null()], {
    description: "what kind the last error was",
  }),
  last_error_hint: Type.Union([Type.String(), Type.Null()], {
    description:
      "what to do about the last error, when it is the operator's to fix (no network, a wrong URL); null otherwise",
  }),
  last_error: Type.Union([Type.String(), Type.Null()], {
    description:
      "the last error's full text, to callers on the local host only (it can name hosts and drivers); null for others, and in the log",
  }),
});

export const Health = Type.Object({
  status: Type.Union([Type.Literal("ok"), Type.Literal("unavailable")]),
  version: Type.String(),
  store: Type.Union([Type.Literal("sqlite"), Type.Literal("postgres")]),
  platform: Type.Union([Type.Literal("memory"), Type.Literal("redis")]),
  role: Type.String(),
  ready: Type.Boolean({
    description:
      "true once every ingest source finished its first full sync and the ledger wrote its statistics: from then on the service answers with its data",
  }),
  uptime_seconds: Type.Integer(),
  sources: Type.Array(SourceStatus),
});

export const Problem = Type.Union(
  [
    Type.Literal("missing_key"),
    Type.Literal("header"),
    Type.Literal("invalid_key"),
    Type.Literal("revoked_key"),
    Type.Literal("rotated_key"),
    Type.Literal("subscription"),
  ],
  { description: "null when the key works for Premium endpoints" },
);

export const Verify = Type.Object({
  valid: Type.Boolean({ description: "the key exists and is active" }),
  premium: Type.Boolean({ description: "the key can call Premium endpoints" }),
  problem: Type.Union([Problem, Type.Null()]),
  detail: Type.String(),
  key_prefix: Type.Union([Type.String(), Type.Null()], {
    description: "service prefix and lookup id; never the whole key",
  }),
  header: Type.Union([Type.Literal("X-API-Key"), Type.Literal("Authorization"), Type.Null()]),
  plan: Type.Union([Type.Literal("free"), Type.Literal("premium"), Type.Null()]),
  rate_limit: Type.Object({ limit: Type.Integer(), remaining: Type.Integer() }),
});

/** /api/openapi.json: the document itself, described as an open object. */
export const OpenApiDocument = Type.Object({}, { additionalProperties: true });
