/**
 * Why a read could not answer, in the read side's own terms; the HTTP layer turns each kind into its status
 * (src/api/errors.ts: not_found 404, upstream_unavailable 502, rate_limited 429 with Retry-After, timed_out 503
 * with Retry-After).
 */
export type ReadErrorKind = "not_found" | "upstream_unavailable" | "rate_limited" | "timed_out";

export class ReadError extends Error {
  constructor(
    readonly kind: ReadErrorKind,
    readonly detail: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(detail);
    this.name = "ReadError";
  }
}

/** What every wallet read answers for a wallet the store has never seen. */
export const walletNotFound = (address: string) =>
  new ReadError("not_found", `Wallet ${address.toLowerCase()} not found`);

export const upstreamUnavailable = () =>
  new ReadError("upstream_unavailable", "Upstream data service temporarily unavailable");
