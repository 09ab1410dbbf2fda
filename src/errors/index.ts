/**
 * The error tree: every error Pelagic throws on purpose is a PelagicError with a stable code from ERROR_CODES (the
 * one list of them, lowest layer, imported by every other). Code reads the code, never the message; the HTTP layer
 * answers each code that can reach a request with its status (src/api/errors.ts); docs/ERRORS.md lists every code,
 * and test/docs.test.ts fails when one is missing there.
 */

/** Every code, with what it means. */
export const ERROR_CODES = {
  CONFIG_INVALID: "a setting's value is not valid",
  CLI_USAGE: "a command was called with an unknown flag, a missing argument or a value it cannot take",
  HTTP_ERROR: "an answer a route chose (its status and detail)",
  READ_NOT_FOUND: "what was asked for is not in the store (a wallet never seen, a market not listed)",
  READ_UPSTREAM_UNAVAILABLE: "a read that needs the venue could not reach it",
  READ_RATE_LIMITED: "a read that needs the venue was refused by the venue's rate limit",
  READ_TIMED_OUT: "a read ran past its statement time-out",
  STORE_STATEMENT_TIMEOUT: "a statement ran past the time-out its read set",
  VENUE_HTTP_ERROR: "the venue answered with an error status that retrying does not help",
  VENUE_UNAVAILABLE: "the venue did not answer in time after every retry (network, time-out, 5xx, 429)",
  VENUE_SHAPE_UNEXPECTED: "a venue payload does not have the shape Pelagic reads",
  VENUE_LOG_UNDECODABLE: "a chain log with a venue event's topic does not decode",
  VENUE_RPC_ERROR: "the Polygon node answered a JSON-RPC error",
  VENUE_LIVE_READ_FAILED: "a wallet's live read from the venue (its signer) failed",
  INGEST_STOPPED: "the ingest was stopped while a step ran (SIGTERM, Ctrl-C)",
  ACCOUNT_INVALID: "an account name or plan that the keys command cannot take",
  KEY_NOT_FOUND: "no API key with that prefix in the store",
  KEY_CHANGE_NOT_ANNOUNCED:
    "a key change is stored, but the API processes were not told (they see it when their check ends)",
  WEBHOOK_TARGET_REFUSED: "a webhook URL resolves to an address that is not public",
  WEBHOOK_CITIES_UNKNOWN: "a webhook names cities the territory monitor does not know",
  WEBHOOK_ENDPOINT_LIMIT: "an account has as many webhooks as ISW_WEBHOOKS_PER_ACCOUNT allows",
  ALERT_INVALID: "an alert rule or destination a Premium account sent breaks a rule of its kind (the field is named)",
  ALERT_LIMIT:
    "an account has as many alert rules or destinations as ALERTS_RULES_PER_ACCOUNT or ALERTS_DESTINATIONS_PER_ACCOUNT allows",
  AI_ANSWER_MALFORMED: "a model's wallet analysis breaks a rule (sections, figures not among the inputs, advice)",
  AI_GENERATION_FAILED: "writing a wallet analysis failed (the model server, its answer, or the rules)",
  MCP_ROUTE_MISSING: "a tool of the MCP server names a route the served OpenAPI document does not have",
  SIGNAL_CHAIN_BROKEN:
    "the signal ledger's hash chain does not hold: a record was edited, dropped or put out of order (pelagic scorecard)",
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export class PelagicError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}
