/**
 * Row types of every table, as Kysely sees them. Conventions (both dialects):
 * - timestamps are unix seconds (integer);
 * - share and collateral amounts are integers in micro-units (1e-6), exactly as on chain: `size`, `usd`, `fee`,
 *   `shares`, `total_bought`, `realized_pnl`; prices are floating numbers 0..1;
 * - flags are integers 0/1 (SQLite has no boolean and PostgreSQL's would come back as another type);
 * - JSON is stored as text.
 */
import type { Generated } from "kysely";
import { fillCodeSql } from "./fill-codes.js";
import type { UnlistedMarketRecordsTable, WalletSyncRequestsTable } from "./queue-tables.js";

export type Flag = 0 | 1;
export type Outcome = "YES" | "NO";
export type Direction = "BUY" | "SELL";
export type EntryType = "MINT" | "MERGE" | "COMPLEMENTARY";
export type Resolution = "YES" | "NO" | "50-50";
export type FillSource = "chain" | "data_api";
export type ActivityType = "SPLIT" | "MERGE" | "REDEEM" | "CONVERSION" | "REWARD" | "MAKER_REBATE" | "TAKER_REBATE";

export interface EventsTable {
  id: string;
  slug: string;
  title: string;
  category: string | null;
  neg_risk: Flag;
  neg_risk_market_id: string | null;
  end_date: number | null;
  closed: Flag;
  tags: string;
  updated_at: number;
}

export interface MarketsTable {
  id: string;
  condition_id: string;
  question: string;
  slug: string;
  event_id: string | null;
  category: string | null;
  yes_token_id: string;
  no_token_id: string;
  price_yes: number | null;
  price_no: number | null;
  volume: number;
  volume_24h: number;
  liquidity: number;
  start_date: number | null;
  end_date: number | null;
  created_at: number | null;
  closed: Flag;
  closed_time: number | null;
  resolution: Resolution | null;
  neg_risk: Flag;
  neg_risk_market_id: string | null;
  neg_risk_question_id: string | null;
  group_item_title: string | null;
  fee_rate: number;
  image: string | null;
  exchange_version: number | null;
  updated_at: number;
}

export interface MarketTokensTable {
  token_id: string;
  condition_id: string;
  outcome_index: number;
  outcome: string;
}

export interface WalletsTable {
  address: string;
  proxy_wallet: string | null;
  signer: string | null;
  name: string | null;
  pseudonym: string | null;
  bio: string | null;
  profile_image: string | null;
  first_seen: number | null;
  last_seen: number | null;
  updated_at: number;
}

export interface FillsTable {
  id: Generated<number>;
  /** Natural key: `chain:<tx>:<logIndex>` on chain, `data:<tx>:<wallet>:<asset>:<side>:<size>:<price>` from the Data API. */
  fill_key: string;
  source: FillSource;
  tx_hash: string;
  log_index: number | null;
  block_number: number | null;
  wallet: string;
  counterparty: string | null;
  role: "maker" | "taker" | null;
  condition_id: string;
  token_id: string;
  outcome_index: number;
  side: Direction;
  size: number;
  usd: number;
  price: number;
  fee: number;
  ts: number;
  entry_type: EntryType | null;
  exchange_version: number | null;
}

/**
 * The stored form of fills (migration 0029, src/store/fill-layout.ts): `fills` is a view over it. Only the write
 * path and queries that must reach the ids address it.
 */
export interface FillRowsTable
  extends Pick<
    FillsTable,
    "id" | "log_index" | "block_number" | "role" | "outcome_index" | "size" | "usd" | "fee" | "ts" | "exchange_version"
  > {
  /** The natural key where it does not follow from block and log (`chainFillKey`), else null. */
  key_text: string | null;
  /** 32 bytes, or null when the hash is kept as text in `tx_text`. */
  tx_hash: Buffer | null;
  tx_text: string | null;
  wallet_id: number;
  counterparty_id: number | null;
  condition_ref: number;
  token_ref: number;
  /** Coded since 0042 (`FILL_CODES`, src/store/fill-layout.ts). */
  source: number;
  side: number;
  entry_type: number | null;
  /** Null where it is `usd / size` (`storedPrice`). */
  price: number | null;
}

/** A dictionary of the compact layout: each value once, with its id. */
export interface AddressIdsTable {
  id: Generated<number>;
  address: string;
}
export interface ConditionIdsTable {
  id: Generated<number>;
  condition_id: string;
}
export interface TokenIdsTable {
  id: Generated<number>;
  token_id: string;
}

/**
 * `fill_rows.role` as stored since migration 0050: a role's code is its place here. The whale makers' partial index
 * and the market-side fills filter on the code (`whaleSizeMakerFills`, `marketSideFills`); src/store/fill-layout.ts
 * stores and reads it.
 */
export const FILL_ROLES = ["maker", "taker"] as const;

/**
 * Which form a statement meets a fill's role in: text (before 0050, and the `fills` view), coded (`fill_rows.role`,
 * 0050 to 0059), or packed (today's `fill_rows`: the role's code among `codes`, src/store/fill-codes.ts).
 */
export type RoleForm = "text" | "coded" | "packed";

/** SQL: a fill's role (under `alias`, if any) in the form the statement meets it: a code, or the text. */
function roleSql(form: RoleForm, alias: string): string {
  if (form === "packed") return fillCodeSql("role", alias);
  return alias ? `${alias}.role` : "role";
}

/** SQL: a fill's role (under `alias`, if any) equal to `role`, in the form the statement meets it. */
export function roleIsSql(role: (typeof FILL_ROLES)[number], form: RoleForm, alias = ""): string {
  return `${roleSql(form, alias)} = ${form === "text" ? `'${role}'` : FILL_ROLES.indexOf(role)}`;
}

/**
 * SQL condition on `fills` (under `alias`, if any; `coded`, `packed`: on `fill_rows`): the fills that count toward
 * their market's trades and volume, as `countsTowardMarket` in src/ledger/market-totals.ts says (the taker's side;
 * unknown roles count too).
 */
export function marketSideFills(alias = "", form: RoleForm = "text"): string {
  return `(${roleSql(form, alias)} is null or not ${roleIsSql("maker", form, alias)})`;
}

/**
 * The size from which a maker's fill is a whale-size trade: the contract's default `min_usd` of a market's whale
 * trades. The partial index `fills_whale_size_makers` (migration 0014) holds exactly the fills of
 * `whaleSizeMakerFills`, so a read with `min_usd` at or above it reads those alone; the index's definition fixes it
 * (another value needs a migration that rebuilds the index).
 */
export const WHALE_SIZE_USD = 500;

/**
 * SQL condition on `fill_rows`: maker fills of at least WHALE_SIZE_USD, as literals (a store uses a partial index only
 * for them); the role packed as today (0059), or coded or as text for the migrations before it.
 */
export function whaleSizeMakerFills(form: RoleForm = "packed"): string {
  return `${roleIsSql("maker", form)} and usd >= ${WHALE_SIZE_USD * 1_000_000}`;
}

/** `whaleSizeMakerFills` of one fill (its `usd` in micro-units, as stored). */
export function isWhaleSizeMakerFill(fill: { role?: string | null; usd: number | bigint }): boolean {
  return fill.role === "maker" && Number(fill.usd) >= WHALE_SIZE_USD * 1_000_000;
}

export interface WalletActivityTable {
  id: Generated<number>;
  activity_key: string;
  source: FillSource;
  wallet: string;
  type: ActivityType;
  condition_id: string | null;
  token_id: string | null;
  outcome_index: number | null;
  size: number;
  usd: number;
  price: number;
  ts: number;
  tx_hash: string;
  log_index: number | null;
  /** CONVERSION: the event's `negRiskMarketID`. */
  neg_risk_market_id: string | null;
  /** CONVERSION: the index set (decimal; bit i = question i's NO given up). REDEEM: the redeemed index sets OR-ed together. */
  index_set: string | null;
  /** CONVERSION: micro-shares the adapter keeps per NO given up (`amount * feeBips / 10000`); null when unknown. */
  fee: number | null;
}

export interface PositionsTable {
  wallet: string;
  token_id: string;
  condition_id: string;
  outcome_index: number;
  shares: number;
  avg_price: number;
  total_bought: number;
  realized_pnl: number;
  fees: number;
  first_ts: number;
  last_ts: number;
  closed_ts: number | null;
  status: "open" | "closed";
}

export interface WalletStatsTable {
  wallet: string;
  computed_at: number;
  total_trades: number;
  total_markets: number;
  total_volume: number;
  last_trade: number | null;
  active_count: number;
  resolved: number;
  wins: number;
  losses: number;
  win_rate: number;
  win_source: "ledger" | "venue" | "market";
  market_wins: number;
  market_losses: number;
  market_win_rate: number;
  total_pnl: number;
  total_pnl_source: "venue" | "ledger";
  realized_pnl: number;
  unrealized_pnl: number;
  gross_profit: number;
  gross_loss: number;
  profit_factor: number;
  pnl_24h: number | null;
  is_smart: Flag;
  is_farmer: Flag;
  farmer_reason: string | null;
  has_skill: Flag;
  skill_z: number | null;
  edge_bps: number | null;
  skill_sample: number;
  profitable_streak: number;
  median_hold_days: number | null;
  hold_positions_count: number;
  categories: string;
  rank_pnl: number | null;
  rank_winrate: number | null;
  rank_volume: number | null;
  rank_profit_factor: number | null;
  /** The wallet's positions as last written, in one number (derive/ledger-rows.ts): moves the stamp of its answers. */
  positions_digest: number;
}

/** The window of the `*_30d` columns of `wallet_stats` (the contract names it). */
export const BOARD_WINDOW_DAYS = 30;

/**
 * What the leaderboards read beside the ledger's statistics, written with them by the Deriver (migration 0005).
 * The 30-day volumes cover fills with ts in (t - BOARD_WINDOW_DAYS, t], t being the clock at the ledger's last
 * refresh (or rebuild). USD.
 */
export interface WalletBoardColumns {
  /** Σ avg_price · total_bought / Σ total_bought over the wallet's positions; null when it bought nothing. */
  avg_entry_price: number | null;
  mint_volume_30d: number;
  merge_volume_30d: number;
  /** Of the wallet's own fills where it was the maker. */
  maker_volume_30d: number;
  volume_30d: number;
}

/** Named counters of the derived tables (`stats_generation`: bumped by every rebuild and refresh of wallet_stats). */
export interface DeriveStateTable {
  name: string;
  value: number;
}

/** How many writes each counted table has seen (migration 0026: triggers keep it). */
export interface TableChangesTable {
  name: string;
  n: number;
}

export interface MarketStatsTable {
  condition_id: string;
  computed_at: number;
  trades: number;
  volume: number;
  volume_24h: number;
  whales_yes: number;
  whales_no: number;
  mint_usd: number;
  merge_usd: number;
  complementary_usd: number;
  unclassified_usd: number;
  /** Trades by settlement (migration 0022). */
  mint_trades: number;
  merge_trades: number;
  complementary_trades: number;
  unclassified_trades: number;
}

export interface PositionSnapshotsTable {
  day: number;
  wallet: string;
  condition_id: string;
  yes_shares: number;
  yes_cost: number;
  no_shares: number;
  no_cost: number;
}

/**
 * How the snapshots are stored (migration 0046): one row per wallet, market and run of taken days over which its
 * position stayed the same, from `from_day` up to (not including) `until_day`. `position_snapshots` joins them to
 * `position_snapshot_days`, the days taken (src/store/position-snapshots.ts). The days in unix seconds, as the view
 * `position_snapshot_runs` reads them: since 0058 the rows store the first day's number and the run's length in
 * days (src/store/day-numbers.ts), and since 0065 each cost as the average price its shares cost it at
 * (src/store/snapshot-costs.ts).
 */
export interface PositionSnapshotRunsTable {
  wallet: string;
  condition_id: string;
  from_day: number;
  until_day: number;
  yes_shares: number;
  yes_cost: number;
  no_shares: number;
  no_cost: number;
}

export interface PositionSnapshotDaysTable {
  day: number;
}

/** A wallet's P&L series, packed (src/store/pnl-series.ts: which series a code is, how its points are packed). */
export interface PnlSeriesTable {
  wallet_id: number;
  series: number;
  points: Uint8Array;
}

/**
 * A wallet's fills summed per UTC month (`YYYY-MM`), entry type and role (fees endpoint): `fees` and `volume` in
 * micro-units, `fills` counted, `charged` the fills with a fee. A fill without an entry type is counted under
 * `UNCLASSIFIED`, one without a role under `unknown` (the labels the endpoint serves).
 */
export interface WalletFeesTable {
  wallet: string;
  month: string;
  entry_type: EntryType | "UNCLASSIFIED";
  role: "maker" | "taker" | "unknown";
  fees: number;
  volume: number;
  fills: number;
  charged: number;
}

/**
 * A wallet's fills counted and their USD summed per UTC day (`day`: unix seconds / 86,400, floored), changes-since's
 * whole days (src/store/wallet-daily-fills.ts); `usd` in micro-units.
 */
export interface WalletDailyFillsTable {
  wallet: string;
  day: number;
  fills: number;
  usd: number;
}

/** A market's market-side fills summed per UTC day (src/store/market-daily-prices.ts). */
export interface MarketDailyPricesTable {
  condition_id: string;
  /** Unix seconds of the UTC day's start. */
  day: number;
  /** Sum of YES price × size (micro-shares). */
  weighted: number;
  /** Sum of size (micro-shares). */
  shares: number;
  trades: number;
  /** Sum of usd (micro-units). */
  usd: number;
  /** The day's last fill in (ts, id) order: its time, id and YES price (the day's close). */
  close_ts: number;
  close_id: number;
  close_yes: number;
}

/**
 * A wallet's latest fill in each market it traded, by (ts, id): what last-moves labels (src/store/wallet-last-moves.ts).
 * `size` and `usd` in micro-units.
 */
export interface WalletLastMovesTable {
  wallet: string;
  condition_id: string;
  ts: number;
  fill_id: number;
  side: Direction;
  outcome_index: number;
  entry_type: EntryType | null;
  size: number;
  usd: number;
  price: number;
}

export interface IngestCheckpointsTable {
  source: string;
  cursor: string;
  first_sync_done: Flag;
  errors: number;
  last_error: string | null;
  updated_at: number;
  /** Time from which the source holds the venue's history (chain-logs: its first block's); null when unknown. */
  history_from: number | null;
}

/** A market's settlement as ConditionResolution reported it on chain. */
export interface MarketResolutionsTable {
  condition_id: string;
  resolution: Resolution;
  /** JSON array of the payout numerators as decimal strings, e.g. `["1","0"]`. */
  payout_numerators: string;
  /** Block timestamp of the resolution. */
  resolved_at: number;
  block_number: number;
  tx_hash: string;
  log_index: number;
}

/** The venue's own view of a wallet's open positions (Data API /positions), replaced at each wallet sync. */
export interface VenuePositionsTable {
  wallet: string;
  token_id: string;
  condition_id: string;
  outcome_index: number;
  size: number;
  avg_price: number;
  cur_price: number;
  initial_value: number;
  current_value: number;
  cash_pnl: number;
  realized_pnl: number;
  total_bought: number;
  redeemable: Flag;
  mergeable: Flag;
  title: string | null;
  slug: string | null;
  event_slug: string | null;
  synced_at: number;
}

/** The venue's closed positions of a wallet (Data API /closed-positions), replaced at each wallet sync. */
export interface VenueClosedPositionsTable {
  wallet: string;
  token_id: string;
  condition_id: string;
  outcome_index: number;
  avg_price: number;
  cur_price: number;
  total_bought: number;
  realized_pnl: number;
  /** When the position closed. */
  ts: number;
  title: string | null;
  slug: string | null;
  event_slug: string | null;
  synced_at: number;
}

/** Per-wallet sync state: when, how much the venue handed out, and whether a pagination ceiling cut it short. */
export interface WalletSyncTable {
  wallet: string;
  synced_at: number | null;
  status: "ok" | "error";
  positions_count: number;
  positions_truncated: Flag;
  /** Closed positions the venue cache holds: the numerator of docs/METRICS.md's 95% rule. */
  closed_positions_count: number;
  closed_positions_truncated: Flag;
  activity_count: number;
  activity_truncated: Flag;
  /** Timestamp of the newest activity synced: the next sync starts there. */
  activity_cursor: number | null;
  /** The last point of the venue's P&L curve, USD micro-units; null when the curve is empty. */
  lifetime_pnl: number | null;
  /** From when the venue lists the wallet's activity: its first activity (the sync's time when it has none); null when unknown. */
  venue_history_from: number | null;
  last_error: string | null;
  updated_at: number;
}

/** Wallet overview lookups per wallet and UTC hour (community lookups), shared by every API process. */
export interface WalletLookupsTable {
  wallet: string;
  /** Start of the hour, unix seconds. */
  hour: number;
  count: number;
}

/** A client that looked a wallet up in an hour (community lookups count these rows). */
export interface WalletLookupClientsTable {
  wallet: string;
  /** Start of the hour, unix seconds. */
  hour: number;
  /** Hash of the client's IPv4 address or IPv6 /64 (src/analytics/wallet/lookups.ts). */
  client: string;
}

export type Plan = "free" | "premium";
export type KeyStatus = "active" | "rotated" | "revoked";

export interface AccountsTable {
  id: Generated<number>;
  name: string;
  plan: Plan;
  created_at: number;
}

export interface ApiKeysTable {
  id: Generated<number>;
  account_id: number;
  /** Public part of the key, after the service prefix: finds the row without revealing anything. */
  lookup_id: string;
  /** SHA-256 (hex) of the whole key; the key itself is never stored. */
  secret_hash: string;
  status: KeyStatus;
  /** Per-key override of the plan's requests per minute. */
  rate_limit_per_minute: number | null;
  created_at: number;
  /** When the key was rotated or revoked. */
  ended_at: number | null;
}

/** A wallet, or an account that funded one, whose incoming collateral transfers are read (migration 0037). */
export interface FundingAddressesTable {
  address: string;
  /** Transfers between it and the nearest wallet it funded: 0 for a wallet. */
  hop: number;
  /** The last block read for it; null until read. */
  traced_to_block: number | null;
  /** Incoming transfers kept (at most FUNDING_MAX_TRANSFERS). */
  transfers: number;
}

/**
 * A collateral token's `Transfer` log into a traced address: since migration 0055 the view `funding_transfers` over
 * `funding_transfer_rows` (src/store/funding-layout.ts), written by `saveTracedFunding`.
 */
export interface FundingTransfersTable {
  block_number: number;
  log_index: number;
  tx_hash: string;
  ts: number;
  /** The collateral token's address (USDC.e or pUSD), lower case. */
  token: string;
  from_address: string;
  to_address: string;
  amount_micro: number;
}

/** A wallet's funding cluster (src/derive/funding-clusters.ts), rewritten whole. */
export interface FundingClustersTable {
  wallet: string;
  /** The cluster's funder: the shared non-hub funder most of its members reach. */
  cluster_id: string;
  /** Transfers from that funder to the wallet; null when the wallet joined through another shared funder. */
  funder_hops: number | null;
}

/** A scored bet (migration 0038; src/derive/insider-scores.ts), rewritten whole. */
export interface InsiderScoresTable {
  wallet: string;
  condition_id: string;
  outcome_index: number;
  /** 0..100, in hundredths (stored as their count since 0063: src/store/insider-score-hundredths.ts). */
  score: number;
  /** 0..1. */
  confidence: number;
  bet_usd: number;
  avg_price: number;
  first_ts: number;
  last_ts: number;
  /** The wallet's funding cluster, if any. */
  cluster_id: string | null;
  /**
   * JSON: the facts the components are computed from beside the columns (src/store/insider-scores.ts,
   * `encodeInsiderFacts`); stored as integers since 0061 and read back byte for byte (src/store/insider-facts.ts).
   */
  facts: string;
  computed_at: number;
}

/** A signal Pelagic emitted (migration 0039; src/store/signal-ledger.ts): a link of the hash chain. */
export interface SignalLedgerTable {
  seq: number;
  /** insider_alert, whale_alert, consensus, whale_flip. */
  kind: string;
  /** Unix seconds. */
  emitted_at: number;
  condition_id: string;
  /** The outcome the signal backs. */
  outcome_index: number;
  wallet: string | null;
  /** What the signal is about, once: the same signal is never recorded twice. */
  ref: string;
  /** JSON: the signal's figures when emitted. */
  detail: string;
  prev_hash: string;
  hash: string;
}

export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  events: EventsTable;
  markets: MarketsTable;
  market_tokens: MarketTokensTable;
  wallets: WalletsTable;
  fills: FillsTable;
  fill_rows: FillRowsTable;
  address_ids: AddressIdsTable;
  condition_ids: ConditionIdsTable;
  token_ids: TokenIdsTable;
  wallet_activity: WalletActivityTable;
  positions: PositionsTable;
  wallet_stats: WalletStatsTable & WalletBoardColumns;
  market_stats: MarketStatsTable;
  position_snapshots: PositionSnapshotsTable;
  position_snapshot_runs: PositionSnapshotRunsTable;
  position_snapshot_days: PositionSnapshotDaysTable;
  pnl_series: PnlSeriesTable;
  wallet_fees: WalletFeesTable;
  wallet_daily_fills: WalletDailyFillsTable;
  market_daily_prices: MarketDailyPricesTable;
  wallet_last_moves: WalletLastMovesTable;
  ingest_checkpoints: IngestCheckpointsTable;
  market_resolutions: MarketResolutionsTable;
  venue_positions: VenuePositionsTable;
  venue_closed_positions: VenueClosedPositionsTable;
  wallet_sync: WalletSyncTable;
  wallet_lookups: WalletLookupsTable;
  wallet_lookup_clients: WalletLookupClientsTable;
  derive_state: DeriveStateTable;
  table_changes: TableChangesTable;
  wallet_sync_requests: WalletSyncRequestsTable;
  unlisted_market_records: UnlistedMarketRecordsTable;
  funding_addresses: FundingAddressesTable;
  funding_transfers: FundingTransfersTable;
  funding_clusters: FundingClustersTable;
  insider_scores: InsiderScoresTable;
  signal_ledger: SignalLedgerTable;
}
