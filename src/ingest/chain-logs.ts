/**
 * Market-wide fills, NegRisk conversions, splits, merges, redemptions and resolutions from chain logs, V1 and V2
 * exchanges in one filter (so the 2026-04-28 cutover needs no special case). Backfills from INGEST_START, then
 * follows the head INGEST_CONFIRMATIONS blocks behind. The chain reader (chain-reader.ts) has each chunk of blocks
 * decoded and settled per transaction (settleChunk, src/venue/chain/); consecutive chunks are gathered into a batch
 * of `batchRecords` fills and events (fewer at a step's end), their markets looked up, written with the checkpoint
 * `block:<last block of the batch>`. Records of markets Gamma does not list yet are held in the store with the batch
 * and moved to their tables once the market is listed (unlisted-markets.ts).
 *
 * A first sync with `deferIndexesBlocks` or more to go drops the fills' wallet and market indexes and leaves its
 * fills' wallets out of `wallets`; the batch that completes it (sets `first_sync_done`) builds the indexes and
 * records the wallets of all stored fills, in its transaction: a store whose chain source has finished its first
 * sync always has both, and a crash meanwhile leaves the first sync unfinished.
 */
import { readCheckpoint, recordHistoryFrom } from "../store/checkpoints.js";
import type { StoreTransaction } from "../store/database.js";
import {
  completeDeferredFills,
  dropDeferredFillIndexes,
  type IndexBuildMemory,
  type NewActivity,
  type NewFill,
} from "../store/fills.js";
import type { NewResolution } from "../store/markets.js";
import { holdUnlistedRecords, type HeldRecord } from "../store/unlisted-records.js";
import {
  CONTRACTS,
  JsonRpcError,
  adapterTransfersFilter,
  logFilterFor,
  mergeChunks,
  NEG_RISK_GET_FEE_BIPS_SELECTOR,
  type ChainClient,
  type ChainFill,
  type DecodedVenueLog,
  type SettledChunk,
  type VenueEventKind,
} from "../venue/index.js";
import type { Batch, SkippedRecord } from "./batch-writer.js";
import type { ChainReader } from "./chain-reader.js";
import {
  chainActivityRow,
  chainFillRow,
  chainResolutionRow,
  isActivityLog,
  resolutionOfPayouts,
} from "./chain-rows.js";
import { writeMarketRows, type IngestContext } from "./context.js";
import { resolveStartBlock, type IngestStart } from "./ingest-start.js";
import type { MarketDirectory } from "./market-directory.js";
import { emptyMarketRows, mergeMarketRows, type MarketRows } from "./market-rows.js";
import type { Pipeline, StepResult } from "./runner.js";
import { SOURCES } from "./sources.js";
import {
  UnlistedMarkets,
  heldActivity,
  heldFill,
  heldResolution,
  type UnlistedMarketsOptions,
} from "./unlisted-markets.js";

const KINDS: readonly VenueEventKind[] = [
  "OrderFilledV1",
  "OrdersMatchedV1",
  "OrderFilledV2",
  "OrdersMatchedV2",
  "PositionsConverted",
  "PositionSplit",
  "PositionsMerge",
  "PayoutRedemption",
  "NegRiskPositionSplit",
  "NegRiskPositionsMerge",
  "NegRiskPayoutRedemption",
  "ConditionResolution",
];

/**
 * The venue's events, and beside them the outcome-token transfers of the collateral adapters, which name the wallet
 * each adapter acted for. Made from the contracts table when a step starts (VENUE_EXTRA_EXCHANGES included).
 */
const chainFilter = () => ({ ...logFilterFor(KINDS), also: [adapterTransfersFilter()] });

export interface ChainLogsOptions {
  readonly start: IngestStart | undefined;
  readonly confirmations: number;
  /** Largest block range of one eth_getLogs request (ChainClient's `maxBlockSpan`); a step reads RANGES_PER_STEP of them. */
  readonly blockSpan: number;
  /** Fills and other events a batch gathers before it is written (fewer at a step's end). */
  readonly batchRecords: number;
  /** A first sync with at least this many blocks to go builds the deferred fills indexes once, at its end. */
  readonly deferIndexesBlocks: number;
  /** Memory for building them (PostgreSQL's sort memory, SQLite's page cache meanwhile). */
  readonly indexBuildMemory: IndexBuildMemory;
  /** Records of markets Gamma does not list yet: how often they are looked up again, how long those of conditions are kept. */
  readonly unlisted: UnlistedMarketsOptions;
}

/**
 * Blocks a step reads, in full-span requests: the reader requests the next ranges and settles the next chunk while
 * a chunk is written, so a step of several keeps the node and the ingest busy at once (between steps, only the head is read).
 */
const RANGES_PER_STEP = 20;

const blockCursor = (block: number) => `block:${block}`;

function parseBlockCursor(text: string | undefined): number | null {
  const match = /^block:(\d+)$/.exec(text ?? "");
  return match ? Number(match[1]) : null;
}

export class ChainLogsPipeline implements Pipeline {
  readonly source = SOURCES.chain;
  private readonly feeBips = new Map<string, number | null>();
  /** The block the first full sync runs to: the target (head less confirmations) of this process's first step. */
  private backfillTarget: number | null = null;
  private indexesDeferred = false;
  private readonly unlisted: UnlistedMarkets;

  constructor(
    private readonly ctx: IngestContext,
    private readonly chain: ChainClient,
    private readonly reader: ChainReader,
    private readonly directory: MarketDirectory,
    private readonly options: ChainLogsOptions,
  ) {
    this.unlisted = new UnlistedMarkets(ctx, directory, this.source, options.unlisted);
  }

  async step(signal: AbortSignal): Promise<StepResult> {
    const checkpoint = await readCheckpoint(this.ctx.store.db, this.source);
    if (checkpoint) await this.unlisted.recheckIfDue(signal);
    const head = await this.chain.blockNumber(signal);
    const target = head - this.options.confirmations;
    const syncing = checkpoint?.first_sync_done !== 1;
    // The first full sync ends at the head seen when this process started it (a later head does too): a head
    // that keeps advancing while the backfill runs must not keep the source from ever being ready.
    if (syncing) this.backfillTarget ??= target;
    const goal = syncing ? Math.min(target, this.backfillTarget as number) : target;
    let last = parseBlockCursor(checkpoint?.cursor);
    if (last === null) {
      // Fixed once, so that a restart before the first chunk does not move the start with the head.
      last = (await resolveStartBlock(this.chain, this.options.start, target, signal)) - 1;
      await this.ctx.writer.commit({ source: this.source, cursor: blockCursor(last) });
    }
    if (checkpoint?.history_from == null)
      await recordHistoryFrom(this.ctx.store.db, this.source, await this.historyStart(head, signal));
    if (syncing && !this.indexesDeferred && goal > last && goal - last >= this.options.deferIndexesBlocks) {
      await this.ctx.store.transaction(dropDeferredFillIndexes);
      this.indexesDeferred = true;
      this.ctx.logger.info(
        { source: this.source, blocks: goal - last },
        "first sync: the fills' wallet and market indexes are built when it reaches the head",
      );
    }
    if (last >= goal) {
      if (syncing)
        await this.ctx.writer.commit({
          source: this.source,
          cursor: blockCursor(last),
          firstSyncDone: true,
          write: (tx) => this.completeFirstSync(tx),
        });
      return { caughtUp: true };
    }
    // A first sync's last step ends at its goal, so that only its last batch completes it (builds what it deferred).
    const to = Math.min(syncing ? goal : target, last + RANGES_PER_STEP * this.options.blockSpan);
    // Once the first sync is done (this process's `indexesDeferred` stays set), fills record their wallets again.
    const deferring = syncing && this.indexesDeferred;
    // A batch is prepared and committed while the reader goes on (PostgreSQL works in its own process, the reader
    // in its thread).
    let gathered: SettledChunk[] = [];
    let records = 0;
    let committing: Promise<void> = Promise.resolve();
    const commitGathered = async () => {
      const chunk = mergeChunks(gathered);
      gathered = [];
      records = 0;
      const batch = await this.prepareChunk(chunk, signal, {
        completesFirstSync: syncing && chunk.toBlock >= goal,
        walletsLater: deferring,
      });
      await committing;
      committing = this.commitChunk(batch, chunk.toBlock, target);
      committing.catch(() => undefined);
    };
    try {
      for await (const chunk of this.reader.chunks({ ...chainFilter(), fromBlock: last + 1, toBlock: to }, signal)) {
        gathered.push(chunk);
        records += chunk.fills.length + chunk.others.length;
        if (records >= this.options.batchRecords) await commitGathered();
      }
      if (gathered.length > 0) await commitGathered();
      await committing;
    } finally {
      await committing.catch(() => undefined);
    }
    return { caughtUp: to >= goal };
  }

  /**
   * From when the store holds the chain's history: INGEST_START's date, or its block's time; now when it follows
   * from the head. (A store whose first sync predates the record takes it from the configured start.)
   */
  private async historyStart(head: number, signal: AbortSignal): Promise<number> {
    const start = this.options.start;
    if (start?.kind === "date") return start.ts;
    if (start?.kind === "block" && start.block <= head) {
      const [ts] = (await this.chain.blockTimestamps([start.block], signal)).values();
      if (ts !== undefined) return ts;
    }
    return this.ctx.clock.now();
  }

  private async commitChunk(batch: Batch, toBlock: number, target: number): Promise<void> {
    const committed = await this.ctx.writer.commit(batch);
    this.ctx.progress({
      source: this.source,
      newFills: committed.fills.length,
      position: toBlock,
      target,
      unit: "block",
    });
  }

  private async prepareChunk(
    chunk: SettledChunk,
    signal: AbortSignal,
    { completesFirstSync, walletsLater }: { completesFirstSync: boolean; walletsLater: boolean },
  ): Promise<Batch> {
    const skipped: SkippedRecord[] = [...chunk.skipped];
    const timestamps = await this.blockTimestamps(chunk, signal);
    const marketRows = emptyMarketRows();
    const held: HeldRecord<unknown>[] = [];
    const fills = await this.fillRows(chunk.fills, timestamps, marketRows, held, signal);
    const { activity, resolutions } = await this.otherRows(chunk.others, timestamps, marketRows, held, skipped, signal);
    return {
      source: this.source,
      cursor: blockCursor(chunk.toBlock),
      firstSyncDone: completesFirstSync ? true : undefined,
      fills,
      fillWalletsLater: walletsLater,
      activity,
      resolutions,
      skipped: [...skipped, ...marketRows.skipped],
      write: async (tx) => {
        await writeMarketRows(tx, marketRows);
        await holdUnlistedRecords(tx, held, this.ctx.clock.now());
        if (completesFirstSync) await this.completeFirstSync(tx);
      },
    };
  }

  /**
   * In the transaction that sets `first_sync_done`: the indexes and wallets a first sync deferred, also when an
   * earlier process deferred them (without, the index build is a no-op and the wallets only merge again).
   */
  private async completeFirstSync(tx: StoreTransaction): Promise<void> {
    if (this.indexesDeferred)
      this.ctx.logger.info(
        { source: this.source },
        "first sync: building the fills' wallet and market indexes, and the fills' wallets",
      );
    await completeDeferredFills(tx, this.options.indexBuildMemory, this.ctx.clock.now());
  }

  /** The chunk's timestamps: those its logs carried, the others from the blocks, in batches. */
  private async blockTimestamps(chunk: SettledChunk, signal: AbortSignal): Promise<Map<number, number>> {
    const out = chunk.timestamps;
    const missing = new Set<number>();
    for (const fill of chunk.fills) if (!out.has(fill.blockNumber)) missing.add(fill.blockNumber);
    for (const log of chunk.others) if (!out.has(log.blockNumber)) missing.add(log.blockNumber);
    if (missing.size > 0)
      for (const [block, ts] of await this.chain.blockTimestamps([...missing], signal)) out.set(block, ts);
    return out;
  }

  /** The fills of listed markets; those of an outcome token no listed market claims go to `held`. */
  private async fillRows(
    settled: readonly ChainFill[],
    timestamps: Map<number, number>,
    marketRows: MarketRows,
    held: HeldRecord<unknown>[],
    signal: AbortSignal,
  ): Promise<NewFill[]> {
    const tokens = await this.directory.tokenFacts(
      settled.map((f) => f.tokenId),
      signal,
    );
    mergeMarketRows(marketRows, tokens.rows);
    const fills: NewFill[] = [];
    for (const fill of settled) {
      const facts = tokens.found.get(fill.tokenId);
      const ts = timestamps.get(fill.blockNumber) as number;
      if (facts) fills.push(chainFillRow(fill, facts, ts));
      else {
        const record = heldFill(fill, ts);
        if (record) held.push(record);
      }
    }
    return fills;
  }

  private async otherRows(
    decoded: readonly DecodedVenueLog[],
    timestamps: Map<number, number>,
    marketRows: MarketRows,
    held: HeldRecord<unknown>[],
    skipped: SkippedRecord[],
    signal: AbortSignal,
  ) {
    const activity: NewActivity[] = [];
    const resolutions: NewResolution[] = [];
    // The ConditionalTokens contract serves other applications too: records of a condition no listed market has wait
    // (unlisted-markets.ts) until Gamma lists it or INGEST_UNLISTED_KEEP_DAYS pass.
    const conditionIds = decoded.flatMap((d) =>
      d.kind === "ConditionResolution" || (isActivityLog(d) && d.kind !== "PositionsConverted") ? [d.conditionId] : [],
    );
    const conditions = await this.directory.knownConditions(conditionIds, signal);
    mergeMarketRows(marketRows, conditions.rows);
    for (const log of decoded) {
      const ts = timestamps.get(log.blockNumber) as number;
      const origin = `rpc log ${log.transactionHash}#${log.logIndex}`;
      if (log.kind === "ConditionResolution") {
        const resolution = resolutionOfPayouts(log.payoutNumerators);
        if (!resolution) {
          if (conditions.found.has(log.conditionId))
            skipped.push({ origin, reason: `payouts ${log.payoutNumerators.join("/")} settle no binary outcome` });
          continue;
        }
        const row = chainResolutionRow(log, ts, resolution);
        if (conditions.found.has(log.conditionId)) resolutions.push(row);
        else held.push(heldResolution(row));
        continue;
      }
      if (!isActivityLog(log)) continue;
      try {
        if (log.kind !== "PositionsConverted" && !conditions.found.has(log.conditionId)) {
          const record = heldActivity(log, ts);
          if (record) held.push(record);
          continue;
        }
        const feeBips = log.kind === "PositionsConverted" ? await this.conversionFeeBips(log.marketId, signal) : null;
        activity.push(chainActivityRow(log, ts, feeBips));
      } catch (error) {
        if (!(error instanceof RangeError)) throw error;
        skipped.push({ origin, reason: error.message });
      }
    }
    return { activity, resolutions };
  }

  /** The adapter's fee rate of a NegRisk market (fixed when the market is prepared); null when the node cannot say. */
  private async conversionFeeBips(marketId: string, signal: AbortSignal): Promise<number | null> {
    if (this.feeBips.has(marketId)) return this.feeBips.get(marketId) as number | null;
    let bips: number | null = null;
    try {
      const result = await this.chain.call(
        "eth_call",
        [
          { to: CONTRACTS.negRiskAdapter.toLowerCase(), data: NEG_RISK_GET_FEE_BIPS_SELECTOR + marketId.slice(2) },
          "latest",
        ],
        signal,
      );
      if (typeof result === "string" && /^0x[0-9a-fA-F]{1,64}$/.test(result)) bips = Number(BigInt(result));
    } catch (error) {
      if (!(error instanceof JsonRpcError)) throw error;
    }
    this.feeBips.set(marketId, bips);
    return bips;
  }
}
