/**
 * One API process's copy of every Smart Money wallet's positions (`is_smart = 1`, farmers included, as the
 * whale-match endpoints have always counted them), indexed by (market, side) and by whale, with the whales'
 * headline figures and the facts of every market: what whale-matches, missed-opportunities and
 * active-whale-markets read, so that a request reads only the asking wallet's own positions (one indexed read)
 * instead of every position in every market that wallet ever traded. Loaded at start, then reloaded in the
 * background once older than WHALE_BOOK_REFRESH_SECONDS or once the Deriver rewrote wallet_stats (the Smart Money
 * set may have changed), while the previous copy answers. A reload reads the whales' statistics rows first and
 * then only the positions of the whales whose row moved (and the markets only when their tables did); `version`
 * moves only when what it read differs from the previous copy, and keys the answers the routes keep serialized,
 * so a reload that finds nothing new keeps them.
 */
import { createHash } from "node:crypto";
import type { BackgroundWork } from "../../platform/background-work.js";
import type { Clock } from "../../platform/clock.js";
import type { Store } from "../../store/database.js";
import { STATS_GENERATION, readDeriveState } from "../../store/derive-state.js";
import type { PositionsTable } from "../../store/schema.js";
import { inSlices, placeholders, queryRows } from "../../store/raw-sql.js";
import { ReloadedCopy } from "../../kept/reloaded-copy.js";
import { loadAllMarkets, outcomeSide, type MarketInfo } from "../markets/market-facts.js";
import { fromMicro } from "../../venue/units.js";
import { marketFactsFingerprint } from "../markets/market-index.js";
import { statsRowStamp } from "../wallet/wallet-stamps.js";
import { rankGroups, type WhaleGroup } from "./whale-groups.js";
import { yieldToLoop } from "../../platform/yield-to-loop.js";

const WALLETS_PER_QUERY = 4;

export const pairKey = (conditionId: string, outcomeIndex: number) => `${conditionId}/${outcomeIndex}`;

/**
 * One position of a whale, as few fields as the book's indexes need: a copy holds every whale's (185,000 for the
 * 10,000,000-fill world), and each market's condition id is one string shared by all of them.
 */
interface WhalePosition {
  readonly conditionId: string;
  readonly outcomeIndex: number;
  /** Micro-shares held. */
  readonly shares: number;
  readonly avgPrice: number;
  /** Realized P&L net of fees, USD. */
  readonly netUsd: number;
  /** Anything was bought on it (total_bought > 0): it counts for matches and missed opportunities. */
  readonly bought: boolean;
  /** Open with shares held: it counts for active whale markets. */
  readonly held: boolean;
}

/** A whale's positions as last read, with the stamp of its statistics row then and a digest of the rows read. */
interface WhalePositions {
  readonly stamp: string;
  readonly digest: string;
  readonly positions: readonly WhalePosition[];
}

export interface BookWhale {
  name: string | null;
  total_pnl: number;
  win_rate: number;
  profit_factor: number;
}

export interface WhaleBookView {
  /** Moves with each load that read something the previous copy did not hold. */
  readonly version: number;
  readonly whales: ReadonlyMap<string, BookWhale>;
  /** The whales' addresses by number (in address order). */
  readonly whaleAddresses: readonly string[];
  /** The whales (by number) that bought each (market, side). */
  readonly boughtByPair: ReadonlyMap<string, readonly number[]>;
  /**
   * Per resolved market, the whales that bought its winning side with their net P&L on it, ranked by count and sum:
   * the missed opportunities' candidates.
   */
  readonly wonGroups: readonly WhaleGroup[];
  /**
   * Per open, unresolved (market, side), the whales that hold it with the cost of their shares, ranked by count
   * and sum: the active whale markets' candidates.
   */
  readonly activeGroups: readonly WhaleGroup[];
  readonly markets: ReadonlyMap<string, MarketInfo>;
  readonly generation: number;
  /** The clock when the copy was read. */
  readonly asOf: number;
}

type PositionRow = Pick<
  PositionsTable,
  | "wallet"
  | "condition_id"
  | "outcome_index"
  | "shares"
  | "avg_price"
  | "total_bought"
  | "realized_pnl"
  | "fees"
  | "status"
>;

interface WhaleRow {
  wallet: string;
  total_pnl: number;
  win_rate: number;
  profit_factor: number;
  name: string | null;
  pseudonym: string | null;
  computed_at: number;
  total_trades: number;
  realized_pnl: number;
  active_count: number;
  positions_digest: number;
}

/** What a load read, handed to the next one: per whale its statistics row's stamp and positions, the markets. */
interface LoadInputs {
  /** Every whale row (figures, names, stamps) as one string: the whale set and figures are unchanged while equal. */
  readonly whalesKey: string;
  readonly positions: ReadonlyMap<string, WhalePositions>;
  readonly marketsStamp: string;
  /** A digest of every market's facts. */
  readonly marketsKey: string;
  /** One string per condition id, shared by every position in the market. */
  readonly conditionIds: Map<string, string>;
}

/** A loaded copy with what it was loaded from. */
export interface LoadedBook extends WhaleBookView {
  readonly inputs: LoadInputs;
}

const digestOf = (text: string) => createHash("sha1").update(text).digest("base64");

const rowsDigest = (rows: readonly PositionRow[]) =>
  digestOf(
    rows
      .map(
        (r) =>
          `${r.condition_id}/${r.outcome_index}:${r.shares}:${r.avg_price}:${r.total_bought}:${r.realized_pnl}:${r.fees}:${r.status}`,
      )
      .join(";"),
  );

function whalePositions(rows: readonly PositionRow[], conditionIds: Map<string, string>): WhalePosition[] {
  return rows.map((r) => {
    let conditionId = conditionIds.get(r.condition_id);
    if (conditionId === undefined) conditionIds.set(r.condition_id, (conditionId = r.condition_id));
    const shares = Number(r.shares);
    return {
      conditionId,
      outcomeIndex: Number(r.outcome_index),
      shares,
      avgPrice: Number(r.avg_price),
      netUsd: fromMicro(Number(r.realized_pnl) - Number(r.fees)),
      bought: Number(r.total_bought) > 0,
      held: r.status === "open" && shares > 0,
    };
  });
}

/**
 * Loads the copy, reusing what `previous` read where its stamps say it is unchanged: the positions of a whale whose
 * statistics row is as it was (the Deriver writes a wallet's positions in the transaction that writes its
 * statistics, the stamp the kept wallet answers use), the markets while their tables' fingerprint stands. When
 * nothing it read differs from `previous` (whale set, figures, names, positions, market facts), `previous` is
 * returned again with the new `asOf`: same version, so the answers kept under it stand.
 */
export async function loadBook(
  store: Store,
  now: number,
  previous: LoadedBook | null,
  nextVersion: () => number,
): Promise<LoadedBook> {
  const generation = await readDeriveState(store.db, STATS_GENERATION);
  const whaleRows = await queryRows<WhaleRow>(
    store.db,
    store.kind,
    `select s.wallet, s.total_pnl, s.win_rate, s.profit_factor, w.name, w.pseudonym, s.computed_at, s.total_trades,
       s.realized_pnl, s.active_count, s.positions_digest from wallet_stats s left join wallets w on w.address = s.wallet where s.is_smart = 1`,
  );
  whaleRows.sort((a, b) => (a.wallet < b.wallet ? -1 : a.wallet > b.wallet ? 1 : 0));
  const whalesKey = whaleRows
    .map((r) => `${r.wallet},${r.win_rate},${r.profit_factor},${r.name},${r.pseudonym},${statsRowStamp(r)}`)
    .join(";");
  const marketsStamp = await marketFactsFingerprint(store);
  const before = previous?.inputs;
  if (previous && before && whalesKey === before.whalesKey && marketsStamp === before.marketsStamp)
    return { ...previous, asOf: now, generation };

  const whales = new Map<string, BookWhale>();
  for (const r of whaleRows) {
    whales.set(r.wallet, {
      name: r.name || r.pseudonym || null,
      total_pnl: Number(r.total_pnl),
      win_rate: Number(r.win_rate),
      profit_factor: Number(r.profit_factor),
    });
  }
  // Only the whales whose statistics row moved (or that joined) are read again, a few per query.
  const stamps = new Map(whaleRows.map((r) => [r.wallet, statsRowStamp(r)]));
  const stale = [...stamps].filter(([w, stamp]) => before?.positions.get(w)?.stamp !== stamp).map(([w]) => w);
  // Each slice's rows are kept per whale as they come, between two reads: no step holds the event loop long.
  const conditionIds = before?.conditionIds ?? new Map<string, string>();
  const fresh = new Map<string, WhalePositions>();
  await inSlices(
    stale,
    async (slice) => {
      const page = await queryRows<PositionRow>(
        store.db,
        store.kind,
        `select wallet, condition_id, outcome_index, shares, avg_price, total_bought, realized_pnl, fees, status from positions
          where wallet in ${placeholders(slice.length)} and (total_bought > 0 or (status = 'open' and shares > 0))
          order by wallet, condition_id, outcome_index`,
        slice,
      );
      for (const wallet of slice) {
        const rows = page.filter((r) => r.wallet === wallet);
        fresh.set(wallet, {
          stamp: stamps.get(wallet)!,
          digest: rowsDigest(rows),
          positions: whalePositions(rows, conditionIds),
        });
      }
      await yieldToLoop();
      return [];
    },
    WALLETS_PER_QUERY,
  );
  const positions = new Map<string, WhalePositions>();
  let positionsMoved = before === undefined || before.positions.size !== stamps.size;
  for (const wallet of stamps.keys()) {
    const kept = before?.positions.get(wallet);
    const read = fresh.get(wallet);
    if (read && kept?.digest !== read.digest) positionsMoved = true;
    positions.set(wallet, read ?? kept!);
  }
  const markets = previous && marketsStamp === before?.marketsStamp ? previous.markets : await loadAllMarkets(store);
  const marketsKey =
    previous && markets === previous.markets ? before!.marketsKey : digestOf(JSON.stringify([...markets.values()]));
  const figuresMoved = whaleRows.some((r) => {
    const was = previous?.whales.get(r.wallet);
    const is = whales.get(r.wallet)!;
    return (
      !was ||
      was.name !== is.name ||
      was.total_pnl !== is.total_pnl ||
      was.win_rate !== is.win_rate ||
      was.profit_factor !== is.profit_factor
    );
  });
  const inputs: LoadInputs = { whalesKey, positions, marketsStamp, marketsKey, conditionIds };
  if (previous && !positionsMoved && !figuresMoved && marketsKey === before?.marketsKey)
    return { ...previous, asOf: now, generation, inputs };
  return { ...(await buildBook(whales, positions, markets)), version: nextVersion(), generation, asOf: now, inputs };
}

/** Whales whose positions are indexed between two turns of the event loop while the copy is built. */
const WHALES_PER_STEP = 16;

/**
 * The copy's indexes and ranked groups, from every whale's positions (in address order), in steps of
 * WHALES_PER_STEP whales and one ranking at a time, the event loop serving requests in between.
 */
async function buildBook(
  whales: Map<string, BookWhale>,
  positions: ReadonlyMap<string, WhalePositions>,
  markets: ReadonlyMap<string, MarketInfo>,
) {
  const whaleAddresses = [...whales.keys()];
  const whaleNumber = new Map(whaleAddresses.map((w, i) => [w, i]));
  const boughtByPair = new Map<string, number[]>();
  type Member = { conditionId: string; outcomeIndex: number; whale: number; figure: number };
  const won = new Map<string, Member[]>();
  const active = new Map<string, Member[]>();
  const push = <T>(map: Map<string, T[]>, key: string, item: T) => {
    const list = map.get(key);
    if (list) list.push(item);
    else map.set(key, [item]);
  };
  let step = 0;
  for (const [wallet, kept] of positions) {
    if (++step % WHALES_PER_STEP === 0) await yieldToLoop();
    const whale = whaleNumber.get(wallet)!;
    for (const p of kept.positions) {
      const market = markets.get(p.conditionId);
      const key = pairKey(p.conditionId, p.outcomeIndex);
      const member = (figure: number) => ({ conditionId: p.conditionId, outcomeIndex: p.outcomeIndex, whale, figure });
      if (p.bought) push(boughtByPair, key, whale);
      if (p.bought && market?.resolution === outcomeSide(p.outcomeIndex)) push(won, key, member(p.netUsd));
      if (p.held && market !== undefined && !market.closed && market.resolution === null)
        push(active, key, member(fromMicro(p.shares) * p.avgPrice));
    }
  }
  await yieldToLoop();
  const wonGroups = rankGroups(won);
  await yieldToLoop();
  const activeGroups = rankGroups(active);
  return { whales, whaleAddresses, boughtByPair, wonGroups, activeGroups, markets };
}

export class WhaleBook {
  private readonly copy: ReloadedCopy<LoadedBook>;
  private loads = 0;
  /** The clock second the statistics generation was last looked at. */
  private checkedAt = -1;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly refreshSeconds: number,
    background: BackgroundWork,
  ) {
    const load = () => loadBook(store, clock.now(), this.copy.view, () => ++this.loads);
    this.copy = new ReloadedCopy("whale book", load, background);
  }

  /**
   * The copy, never older than the refresh window: a copy half that old is reloaded in the background while it
   * answers, so under steady traffic no request waits; a call that finds none, or one past the window (the process
   * was idle), or one of a store that had no Smart Money yet when a rewrite of the statistics has come since, waits
   * for the load. The statistics generation is looked at once a second; a move reloads the copy in the background.
   */
  async current(): Promise<WhaleBookView> {
    const view = this.copy.view;
    if (!view) return this.copy.reload();
    const now = this.clock.now();
    const age = now - view.asOf;
    if (age >= this.refreshSeconds || age < 0) return this.copy.reload();
    if (age >= this.refreshSeconds / 2) this.copy.reloadQuietly();
    else if (now !== this.checkedAt) {
      this.checkedAt = now;
      if ((await readDeriveState(this.store.db, STATS_GENERATION)) !== view.generation) {
        if (view.whales.size === 0) return this.copy.reload();
        this.copy.reloadQuietly();
      }
    }
    return view;
  }

  forget(): void {
    this.copy.forget();
  }
}
