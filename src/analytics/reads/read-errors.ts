/**
 * Why a read could not answer, in the read side's own terms; the HTTP layer answers each code with its status
 * (src/api/errors.ts, docs/ERRORS.md: READ_NOT_FOUND 404, READ_UPSTREAM_UNAVAILABLE 502, READ_RATE_LIMITED 429
 * and READ_TIMED_OUT 503, both with Retry-After).
 */
import { PelagicError } from "../../errors/index.js";

export type ReadErrorKind = "not_found" | "upstream_unavailable" | "rate_limited" | "timed_out";

const CODE_OF_KIND = {
  not_found: "READ_NOT_FOUND",
  upstream_unavailable: "READ_UPSTREAM_UNAVAILABLE",
  rate_limited: "READ_RATE_LIMITED",
  timed_out: "READ_TIMED_OUT",
} as const;

export class ReadError extends PelagicError {
  constructor(
    readonly kind: ReadErrorKind,
    readonly detail: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(CODE_OF_KIND[kind], detail);
  }
}

/** What every wallet read answers for a wallet the store has never seen. */
export const walletNotFound = (address: string) =>
  new ReadError("not_found", `Wallet ${address.toLowerCase()} not found`);

export const upstreamUnavailable = () =>
  new ReadError("upstream_unavailable", "Upstream data service temporarily unavailable");
