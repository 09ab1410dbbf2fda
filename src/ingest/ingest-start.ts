/**
 * INGEST_START: where a backfill begins, a block number or a date (YYYY-MM-DD, 00:00 UTC). A date becomes the
 * first block at or after it, searched over block timestamps (firstBlockAtOrAfter).
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

/** Polygon's block time, near enough to aim the first guess: the search corrects any error. */
const BLOCK_SECONDS_GUESS = 2;

/**
 * The first block whose timestamp is at or after `ts`; `head + 1` when even the head is older. Aims at the block the
 * head's timestamp and the chain's block time point to, brackets the answer from there with steps that double, then
 * interpolates inside the bracket (halving whenever interpolation narrows it less than halving would): on a chain
 * whose blocks come at a steady pace that is a handful of calls where bisecting from the head took about 45, each a
 * paced RPC request. Blocks before the node's history count as older than anything, so they are never needed.
 */
export async function firstBlockAtOrAfter(
  chain: ChainClient,
  ts: number,
  head: number,
  signal?: AbortSignal,
): Promise<number> {
  const at = (block: number) => timestampOf(chain, block, signal);
  const headTs = await at(head);
  if (headTs < ts) return head + 1;
  // Invariant from here: at(lo) < ts <= at(hi), with lo = -1 standing for "before block 0".
  let hi = head;
  let hiTs = headTs;
  let lo = -1;
  let loTs = Number.NEGATIVE_INFINITY;
  const guess = Math.max(0, head - Math.ceil((headTs - ts) / BLOCK_SECONDS_GUESS));
  const guessTs = guess < head ? await at(guess) : headTs;
  if (guessTs < ts) [lo, loTs] = [guess, guessTs];
  else [hi, hiTs] = [guess, guessTs];
  // Bracket: step away from the guess, doubling, until the other side of `ts` is found.
  for (let step = Math.max(16, Math.ceil((head - guess) / 100)); lo === -1 && hi > 0; step *= 2) {
    const block = Math.max(0, hi - step);
    const blockTs = await at(block);
    if (blockTs < ts) [lo, loTs] = [block, blockTs];
    else [hi, hiTs] = [block, blockTs];
  }
  for (let step = Math.max(16, Math.ceil((head - guess) / 100)); lo !== -1 && hi === head && lo < head - 1; step *= 2) {
    const block = Math.min(head, lo + step);
    if (block === head) break;
    const blockTs = await at(block);
    if (blockTs < ts) [lo, loTs] = [block, blockTs];
    else {
      [hi, hiTs] = [block, blockTs];
      break;
    }
  }
  while (hi - lo > 1) {
    const half = lo + Math.floor((hi - lo) / 2);
    const aimed = Number.isFinite(loTs) ? lo + Math.ceil(((ts - loTs) / (hiTs - loTs)) * (hi - lo)) : half;
    // Inside the bracket; interpolation aims at the answer, so probing just below it settles the bracket quickly.
    const probe = Math.min(hi - 1, Math.max(lo + 1, aimed - (hi - lo > 64 ? 1 : 0)));
    const probeTs = await at(probe);
    const before = hi - lo;
    if (probeTs < ts) [lo, loTs] = [probe, probeTs];
    else [hi, hiTs] = [probe, probeTs];
    if (hi - lo > before / 2 && hi - lo > 1) {
      const middle = lo + Math.floor((hi - lo) / 2);
      const middleTs = await at(middle);
      if (middleTs < ts) [lo, loTs] = [middle, middleTs];
      else [hi, hiTs] = [middle, middleTs];
    }
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
