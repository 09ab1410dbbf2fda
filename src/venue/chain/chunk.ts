/**
 * One eth_getLogs answer made ready for the chain pipeline, without the store: its logs decoded (decoder.ts), the
 * exchanges' fills settled per transaction (settleFills), splits, merges, conversions and redemptions attributed to
 * the wallets that made them (attribution.ts), resolutions kept as decoded, the block timestamps the logs carry,
 * and every record that could not be read. Pure, so it runs on ingest's reader thread (src/ingest/chain-reader.ts)
 * as well as on the pipeline's own.
 */
import type { RpcLog } from "../shapes/json-rpc.js";
import { skippedRows, type SkippedRecord } from "../shapes/shape.js";
import { VenueLogDecodeError, type DecodedVenueLog } from "./abi.js";
import type { LogChunk } from "./client.js";
import { attributeOperations } from "./attribution.js";
import { decodeRpcLog } from "./decoder.js";
import { isExchangeEvent, settleFills, type ChainFill } from "./settlement.js";

export interface SettledChunk {
  readonly fromBlock: number;
  readonly toBlock: number;
  readonly fills: ChainFill[];
  /** The chunk's conversions, splits, merges and redemptions, each naming the wallet that made it, and its resolutions. */
  readonly others: DecodedVenueLog[];
  /** Unix seconds of the blocks whose logs carried `blockTimestamp` (many nodes send it). */
  readonly timestamps: Map<number, number>;
  /** Rows of the answer that are no log, logs that do not decode, fills that do not settle. */
  readonly skipped: SkippedRecord[];
}

const HEX_QUANTITY = /^0x[0-9a-fA-F]+$/;

export function settleChunk(chunk: LogChunk): SettledChunk {
  const skipped = skippedRows(chunk.rejected);
  const decoded: DecodedVenueLog[] = [];
  const nonExchange: DecodedVenueLog[] = [];
  for (const log of chunk.logs) {
    if (log.removed) continue;
    try {
      const event = decodeRpcLog(log);
      if (!event) continue;
      decoded.push(event);
      if (!isExchangeEvent(event)) nonExchange.push(event);
    } catch (error) {
      if (!(error instanceof VenueLogDecodeError)) throw error;
      skipped.push({ origin: `rpc log ${log.transactionHash}#${Number(BigInt(log.logIndex))}`, reason: error.message });
    }
  }
  const settlement = settleFills(decoded);
  for (const a of settlement.anomalies) skipped.push({ origin: `rpc log ${a.txHash}#${a.logIndex}`, reason: a.reason });
  const attribution = attributeOperations(nonExchange);
  for (const { log, reason } of attribution.unattributed)
    skipped.push({ origin: `rpc log ${log.transactionHash}#${log.logIndex}`, reason });
  return {
    fromBlock: chunk.fromBlock,
    toBlock: chunk.toBlock,
    fills: settlement.fills,
    others: attribution.records,
    timestamps: carriedTimestamps(chunk.logs),
    skipped,
  };
}

function carriedTimestamps(logs: readonly RpcLog[]): Map<number, number> {
  const out = new Map<number, number>();
  let lastBlock = "";
  for (const log of logs) {
    // Logs come in block order: one parse per block.
    if (log.blockNumber === lastBlock) continue;
    const stamp = (log as { blockTimestamp?: unknown }).blockTimestamp;
    if (typeof stamp !== "string" || !HEX_QUANTITY.test(stamp)) continue;
    lastBlock = log.blockNumber;
    out.set(Number(BigInt(log.blockNumber)), Number(BigInt(stamp)));
  }
  return out;
}

/** Consecutive chunks as one (the first's start, the last's end). */
export function mergeChunks(chunks: readonly SettledChunk[]): SettledChunk {
  if (chunks.length === 1) return chunks[0] as SettledChunk;
  const timestamps = new Map<number, number>();
  for (const chunk of chunks) for (const [block, ts] of chunk.timestamps) timestamps.set(block, ts);
  return {
    fromBlock: (chunks[0] as SettledChunk).fromBlock,
    toBlock: (chunks.at(-1) as SettledChunk).toBlock,
    fills: chunks.flatMap((c) => c.fills),
    others: chunks.flatMap((c) => c.others),
    timestamps,
    skipped: chunks.flatMap((c) => c.skipped),
  };
}
