/**
 * INGEST_START: where a backfill begins, a block number or a date (YYYY-MM-DD, 00:00 UTC). A date becomes the
 * first block at or after it, by binary search over block timestamps.
 */
import { ConfigError } from "../config/index.js";
import { VenueShapeError, type ChainClient } from "../venue/index.js";

export type IngestStart =
  | { readonly kind: "block"; readonly block: number }
  | { readonly kind: "date"; readonly ts: number };

export function parseIngestStart(text: string | undefined): IngestStart | undefined {
  if (text === undefined || text.trim() === "") return undefined;
  const value = text.trim();
  if (/^\d+$/.test(value)) return { kind: "block", block: Number(value) };
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : NaN;
  if (!Number.isFinite(ms))
    throw new ConfigError("INGEST_START", `expected YYYY-MM-DD or a block number, got "${value}"`);
  return { kind: "date", ts: ms / 1000 };
}

/** A block's timestamp; a block the node does not have (before its history starts) counts as older than anything. */
async function timestampOf(chain: ChainClient, block: number, signal?: AbortSignal): Promise<number> {
  try {
    return (await chain.block(block, signal)).timestamp;
  } catch (error) {
    if (error instanceof VenueShapeError && /block not found/.test(error.message)) return Number.NEGATIVE_INFINITY;
    throw error;
  }
}

/**
 * The first block whose timestamp is at or after `ts`; `head + 1` when even the head is older. Gallops back from
 * the head, then bisects: a recent start costs a few calls, and blocks before the node's history are never needed.
 */
export async function firstBlockAtOrAfter(
  chain: ChainClient,
  ts: number,
  head: number,
  signal?: AbortSignal,
): Promise<number> {
  if ((await timestampOf(chain, head, signal)) < ts) return head + 1;
  let hi = head;
  let lo = head;
  for (let step = 1; lo > 0; step *= 2) {
    lo = Math.max(0, head - step);
    if ((await timestampOf(chain, lo, signal)) < ts) break;
    hi = lo;
  }
  if (lo === hi) return lo;
  // timestamp(lo) < ts <= timestamp(hi)
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if ((await timestampOf(chain, mid, signal)) >= ts) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** Where a source's backfill starts when it has no checkpoint: the configured start, else the head (follow only). */
export async function resolveStartBlock(
  chain: ChainClient,
  start: IngestStart | undefined,
  head: number,
  signal?: AbortSignal,
): Promise<number> {
  if (!start) return head + 1;
  return start.kind === "block" ? start.block : firstBlockAtOrAfter(chain, start.ts, head, signal);
}
