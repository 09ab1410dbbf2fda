/**
 * The last line of defence of a long-running process (`serve`, `demo`, `ingest`): an error that no code caught.
 * Every socket the service touches has an error listener of its own, so nothing should reach this; what does is
 * sorted here.
 * - A connection's error (a client's or a peer's reset, a broken pipe, a refused or timed-out connection, a
 *   stream written after its end, a malformed HTTP or WebSocket frame, an aborted operation) concerns that one
 *   connection, which is closed by then: it is logged, counted (`pelagic_escaped_errors_total`) and the process
 *   goes on.
 * - Anything else (a TypeError, a RangeError, a store error, an assertion) was thrown from code in the middle of
 *   its work, whose state is then unknown (half of an in-memory update, a batch between two steps): the process
 *   logs it and exits with code 1 for its supervisor to restart it. Ingest is idempotent and resumable, so a
 *   restart loses and duplicates nothing; serving on with a corrupt copy would answer wrong numbers for good.
 */
import type { Logger } from "../platform/logger.js";
import { metrics } from "../platform/metrics.js";

const CONNECTION_ERROR_CODES = new Set([
  "ECONNRESET",
  "EPIPE",
  "ECONNABORTED",
  "ECONNREFUSED",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENETDOWN",
  "ENOTCONN",
  "EAI_AGAIN",
  "ABORT_ERR",
  "ERR_STREAM_DESTROYED",
  "ERR_STREAM_WRITE_AFTER_END",
  "ERR_STREAM_PREMATURE_CLOSE",
  "ERR_SOCKET_CLOSED",
  "ERR_HTTP_REQUEST_TIMEOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_CLOSED",
]);
/** Code prefixes of whole families: Node's HTTP parser (malformed requests) and the ws library (malformed frames). */
const CONNECTION_ERROR_PREFIXES = ["HPE_", "WS_ERR_"];

/** Whether an error that escaped concerns one connection only, so that the process may go on. */
export function isConnectionError(error: unknown): boolean {
  if (error === null || typeof error !== "object") return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string")
    return CONNECTION_ERROR_CODES.has(code) || CONNECTION_ERROR_PREFIXES.some((prefix) => code.startsWith(prefix));
  return (error as { name?: unknown }).name === "AbortError";
}

export type EscapeOrigin = "uncaughtException" | "unhandledRejection";

/** What the guard does with one escaped error: `exit` is called only for an error that leaves state unknown. */
export function handleEscapedError(
  error: unknown,
  origin: EscapeOrigin,
  logger: Pick<Logger, "warn" | "fatal">,
  exit: (code: number) => void,
): void {
  if (isConnectionError(error)) {
    metrics.escapedErrors.inc({ origin });
    logger.warn({ err: error, origin }, "a connection's error escaped its handlers; the connection is closed");
    return;
  }
  logger.fatal({ err: error, origin }, "an uncaught error left the process in an unknown state; exiting");
  exit(1);
}

let guarded = false;

/** Installs the guard for the life of the process (once: a second call adds nothing). */
export function guardProcess(logger: Pick<Logger, "warn" | "fatal">): void {
  if (guarded) return;
  guarded = true;
  const exit = (code: number) => process.exit(code);
  process.on("uncaughtException", (error) => handleEscapedError(error, "uncaughtException", logger, exit));
  process.on("unhandledRejection", (reason) => handleEscapedError(reason, "unhandledRejection", logger, exit));
}
