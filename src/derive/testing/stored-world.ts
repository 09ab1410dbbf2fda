/**
 * A simulated world loaded straight into a real store, as a complete ingest would hold it (chain fills with
 * their counterparties, splits, merges, conversions, redemptions, resolutions, rewards; Gamma's markets and
 * events), without the ingest code; and the venue's per-wallet cache as a wallet sync would store it.
 * For the derive tests and the bench.
 */
import { loadConfig } from "../../config/index.js";
import { categoryFromTags } from "../../venue/categories.js";
import {
  truthOperations,
  truthResolutions,
  truthRewards,
  type TimeRange,
  type TruthOperation,
} from "../../sim/servers/ground-truth.js";
import { referencePnl, type World } from "../../sim/world/index.js";
import type { Store } from "../../store/database.js";
import { chainFillKey, insertActivity, insertFills, type NewActivity, type NewFill } from "../../store/fills.js";
import {
  recordResolutions,
  upsertEvents,
  upsertMarkets,
  type NewEvent,
  type NewMarket,
  type NewMarketToken,
  type NewResolution,
} from "../../store/markets.js";
import { replaceVenueClosedPositions, replaceVenuePnlPoints, saveWalletSync } from "../../store/wallet-cache.js";
import { recordWalletSightings } from "../../store/wallets.js";
import type { DeriveConfig } from "../derivation.js";

export const deriveConfig = (env: Record<string, string> = {}): DeriveConfig => loadConfig(env);

function bounds(range: TimeRange): [number, number] {
  return [range.from ?? 0, range.to ?? Number.MAX_SAFE_INTEGER];
}

/**
 * The fills rows of the world's matches in the range, in chain order. Read from the world rather than
 * `truthFills`, for each fill's counterparty.
 */
export function* worldFillRows(world: World, range: TimeRange = {}): Generator<NewFill> {
  const [j0, j1] = world.matchesBetween(...bounds(range));
  for (let j = j0; j < j1; j++) {
    const txHash = world.txHashOfMatch(j);
    const [from, to] = world.fillsOfMatch(j);
    for (let f = from; f < to; f++) {
      const fill = world.fill(f);
      yield {
        fill_key: chainFillKey(fill.block, fill.logIndex),
        source: "chain",
        tx_hash: txHash,
        log_index: fill.logIndex,
        block_number: fill.block,
        wallet: world.wallets[fill.wallet]!.proxyWallet,
        counterparty: world.wallets[fill.counterparty]!.proxyWallet,
        role: fill.role,
        condition_id: world.markets[fill.market]!.conditionId,
        token_id: world.tokenId(fill.token),
        outcome_index: fill.outcome,
        side: fill.side,
        size: fill.size,
        usd: fill.usd,
        price: fill.price / 1e6,
        fee: fill.fee,
        ts: fill.ts,
        entry_type: fill.entryType,
        exchange_version: fill.exchangeVersion,
      };
    }
  }
}

type OperationRow = { activity: NewActivity } | { resolution: NewResolution };

function operationRow(op: TruthOperation, feeBips: ReadonlyMap<string, number>): NewActivity {
  const base = {
    activity_key: `chain:${op.txHash}:${op.logIndex}`,
    source: "chain" as const,
    wallet: op.wallet,
    ts: op.ts,
    tx_hash: op.txHash,
    log_index: op.logIndex,
  };
  switch (op.type) {
    case "SPLIT":
    case "MERGE":
      return {
        ...base,
        type: op.type,
        condition_id: op.conditionId,
        size: op.amountMicro,
        usd: op.amountMicro,
        price: 0.5,
      };
    case "REDEEM":
      return {
        ...base,
        type: "REDEEM",
        condition_id: op.conditionId,
        size: op.payoutMicro,
        usd: op.payoutMicro,
        price: 0,
        index_set: String((op.amountMicro > 0 ? 1 : 0) | (op.amount2Micro > 0 ? 2 : 0)),
      };
    case "CONVERSION": {
      const fee = Math.trunc((op.amountMicro * (feeBips.get(op.negRiskMarketId!) ?? 0)) / 10_000);
      return {
        ...base,
        type: "CONVERSION",
        condition_id: null,
        size: op.amountMicro,
        usd: op.payoutMicro,
        price: 0,
        neg_risk_market_id: op.negRiskMarketId,
        index_set: String(op.indexSet),
        fee,
      };
    }
  }
}

/** The wallet_activity rows (rewards as the Data API lists them) and chain resolutions of the world in the range, by time. */
export function* worldOperationRows(world: World, range: TimeRange = {}): Generator<OperationRow & { ts: number }> {
  const feeBips = new Map(
    world.events.filter((e) => e.negRiskMarketId).map((e) => [e.negRiskMarketId!, e.convertFeeBips]),
  );
  const sources: Array<Iterator<OperationRow & { ts: number }>> = [
    (function* () {
      for (const op of truthOperations(world, range)) yield { ts: op.ts, activity: operationRow(op, feeBips) };
    })(),
    (function* () {
      for (const r of truthRewards(world, range)) {
        const activity: NewActivity = {
          activity_key: `data:${r.txHash}:${r.wallet}:REWARD::${r.amountMicro}`,
          source: "data_api",
          wallet: r.wallet,
          type: "REWARD",
          size: r.amountMicro,
          usd: r.amountMicro,
          price: 0,
          ts: r.ts,
          tx_hash: r.txHash,
          log_index: null,
        };
        yield { ts: r.ts, activity };
      }
    })(),
    (function* () {
      for (const r of truthResolutions(world, range)) {
        const numerators = r.resolution === "YES" ? ["1", "0"] : r.resolution === "NO" ? ["0", "1"] : ["1", "1"];
        yield {
          ts: r.ts,
          resolution: {
            condition_id: r.conditionId,
            resolution: r.resolution,
            payout_numerators: JSON.stringify(numerators),
            resolved_at: r.ts,
            block_number: r.blockNumber,
            tx_hash: r.txHash,
            log_index: r.logIndex,
          },
        };
      }
    })(),
  ];
  const heads = sources.map((source) => source.next());
  for (;;) {
    let next = -1;
    heads.forEach((head, i) => {
      if (!head.done && (next < 0 || head.value.ts < (heads[next]!.value as { ts: number }).ts)) next = i;
    });
    if (next < 0) return;
    yield heads[next]!.value as OperationRow & { ts: number };
    heads[next] = sources[next]!.next();
  }
}

/**
 * Gamma's events, markets and tokens as of `asOf`, as the markets sync stores them: prices then, resolutions
 * published by then (rows stamped `updatedAt`), categories mapped from the tags (src/venue/categories.ts).
 */
export function worldMarketRows(
  world: World,
  asOf: number,
  updatedAt = asOf,
): { events: NewEvent[]; markets: NewMarket[]; tokens: NewMarketToken[] } {
  const events: NewEvent[] = world.events.map((e) => ({
    id: e.id,
    slug: e.slug,
    title: e.title,
    category: categoryFromTags(e.tags, e.category),
    neg_risk: e.negRisk ? 1 : 0,
    neg_risk_market_id: e.negRiskMarketId,
    end_date: e.endDate,
    closed: e.marketIndexes.every((m) => world.markets[m]!.tradingStop <= asOf) ? 1 : 0,
    tags: JSON.stringify(e.tags.map((t) => t.slug)),
    updated_at: updatedAt,
  }));
  const markets: NewMarket[] = world.markets.map((m) => {
    const closed = m.tradingStop <= asOf;
    const resolved = m.resolvedAt !== null && m.resolvedAt <= asOf;
    const yes = world.markPrice(m.index, 0, asOf) / 1e6;
    return {
      id: m.id,
      condition_id: m.conditionId,
      question: m.question,
      slug: m.slug,
      event_id: world.events[m.eventIndex]!.id,
      category: categoryFromTags(world.events[m.eventIndex]!.tags, m.category),
      yes_token_id: m.yesTokenId,
      no_token_id: m.noTokenId,
      price_yes: yes,
      price_no: 1 - yes,
      volume: 0,
      volume_24h: 0,
      liquidity: 0,
      start_date: m.startDate,
      end_date: m.endDate,
      created_at: m.createdAt,
      closed: closed ? 1 : 0,
      closed_time: closed ? (resolved ? m.resolvedAt : m.tradingStop) : null,
      resolution: resolved ? m.resolution : null,
      neg_risk: m.negRisk ? 1 : 0,
      neg_risk_market_id: m.negRiskMarketId,
      neg_risk_question_id: m.negRisk ? m.questionId : null,
      group_item_title: m.groupItemTitle,
      fee_rate: m.fee.rate,
      updated_at: updatedAt,
    };
  });
  const tokens: NewMarketToken[] = world.markets.flatMap((m) => [
    { token_id: m.yesTokenId, condition_id: m.conditionId, outcome_index: 0, outcome: "Yes" },
    { token_id: m.noTokenId, condition_id: m.conditionId, outcome_index: 1, outcome: "No" },
  ]);
  return { events, markets, tokens };
}

export interface LoadedRows {
  readonly fills: NewFill[];
  readonly activity: NewActivity[];
  readonly resolutions: NewResolution[];
}

/**
 * Stores the world's markets as of `asOf` and its rows in the range, in transactions of `batchRows` rows;
 * `onBatch` sees each committed batch's new rows, as the ingest's listeners would. Returns the counts.
 */
export async function loadWorld(
  store: Store,
  world: World,
  options: {
    range?: TimeRange;
    asOf?: number;
    updatedAt?: number;
    batchRows?: number;
    onBatch?: (batch: LoadedRows) => Promise<void>;
    /** Only these wallets' fills and activity (proxy addresses); every market and resolution still. */
    wallets?: ReadonlySet<string>;
  } = {},
): Promise<{ fills: number; activity: number }> {
  const asOf = options.asOf ?? Math.min(world.end, (options.range?.to ?? Number.MAX_SAFE_INTEGER) - 1);
  const markets = worldMarketRows(world, asOf, options.updatedAt);
  await store.transaction(async (tx) => {
    await upsertEvents(tx, markets.events);
    await upsertMarkets(tx, markets.markets, markets.tokens);
  });
  const batchRows = options.batchRows ?? 20_000;
  let counts = { fills: 0, activity: 0 };
  let pending: LoadedRows = { fills: [], activity: [], resolutions: [] };
  const flush = async () => {
    const committed = await store.transaction(async (tx) => ({
      resolutions: await recordResolutions(tx, pending.resolutions),
      fills: await insertFills(tx, pending.fills),
      activity: await insertActivity(tx, pending.activity),
    }));
    counts = { fills: counts.fills + committed.fills.length, activity: counts.activity + committed.activity.length };
    pending = { fills: [], activity: [], resolutions: [] };
    await options.onBatch?.(committed);
  };
  const range = options.range ?? {};
  // Operations and matches merged by time, so that a batch holds whole stretches of the chain.
  const operations = worldOperationRows(world, range);
  let op = operations.next();
  const kept = options.wallets;
  for (const fill of worldFillRows(world, range)) {
    for (; !op.done && op.value.ts <= fill.ts; op = operations.next()) addOperation(pending, op.value, kept);
    if (kept && !kept.has(fill.wallet)) continue;
    pending.fills.push(fill);
    if (pending.fills.length >= batchRows) await flush();
  }
  for (; !op.done; op = operations.next()) addOperation(pending, op.value, kept);
  await flush();
  return counts;
}

function addOperation(rows: LoadedRows, row: OperationRow, wallets?: ReadonlySet<string>): void {
  if ("activity" in row) {
    if (!wallets || wallets.has(row.activity.wallet)) rows.activity.push(row.activity);
  } else rows.resolutions.push(row.resolution);
}

/** The venue's per-wallet cache of every wallet as of `asOf`, as a per-wallet sync stores it (amounts in micro-units). */
export async function loadVenueCache(
  store: Store,
  world: World,
  asOf: number = world.end,
  wallets: readonly number[] = world.wallets.map((w) => w.index),
): Promise<void> {
  for (const w of wallets) {
    const ref = referencePnl(world, w, asOf);
    const wallet = world.wallets[w]!.proxyWallet;
    await store.transaction(async (tx) => {
      await replaceVenueClosedPositions(
        tx,
        wallet,
        ref.closedPositions.map((c) => ({
          wallet,
          token_id: world.tokenId(c.token),
          condition_id: world.markets[c.market]!.conditionId,
          outcome_index: c.outcome,
          avg_price: c.avgPrice,
          cur_price: c.curPrice,
          total_bought: c.micro.totalBought,
          realized_pnl: c.micro.realizedPnl,
          ts: c.timestamp,
          title: null,
          slug: null,
          event_slug: null,
          synced_at: asOf,
        })),
      );
      await replaceVenuePnlPoints(
        tx,
        wallet,
        ref.curve.map((p) => ({ wallet, t: p.t, pnl: Math.round(p.p * 1e6) })),
      );
      await saveWalletSync(tx.db, {
        wallet,
        synced_at: asOf,
        status: "ok",
        positions_count: ref.positions.length,
        positions_truncated: 0,
        closed_positions_count: ref.closedPositions.length,
        closed_positions_truncated: 0,
        activity_count: 0,
        activity_truncated: 0,
        activity_cursor: null,
        lifetime_pnl: Math.round(ref.totalPnl * 1e6),
        venue_history_from: null,
        last_error: null,
        updated_at: asOf,
      });
    });
  }
}

/** Every wallet of the world seen, with its profile, at `at` (the wallet sync's sightings). */
export async function recordWorldWallets(store: Store, world: World, at: number): Promise<void> {
  await store.transaction((tx) =>
    recordWalletSightings(
      tx,
      world.wallets.map((w) => ({
        address: w.proxyWallet,
        ts: w.createdAt,
        name: w.name || null,
        pseudonym: w.pseudonym,
        bio: w.bio || null,
        profileImage: w.profileImage || null,
      })),
      at,
    ),
  );
}
