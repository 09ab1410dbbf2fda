/**
 * Public types of the simulated world. Conventions:
 * - timestamps are unix seconds (UTC) on the 2-second block grid;
 * - shares and collateral are integers in micro-units (1e-6), as on chain; prices are integers in micro-units
 *   of collateral per share (0..1_000_000);
 * - a token is addressed by its index `market * 2 + outcome` (outcome 0 = YES, 1 = NO);
 * - wallets, markets and events are addressed by their index in `world.wallets`, `world.markets`, `world.events`.
 */

export const CATEGORIES = ["SPORTS", "GEOPOLITICS", "CRYPTO", "POLITICS", "ECONOMICS", "TECH"] as const;
export type Category = (typeof CATEGORIES)[number];

export const YES = 0;
export const NO = 1;
export type OutcomeIndex = 0 | 1;
export const OUTCOME_NAMES = ["Yes", "No"] as const;

export const BUY = 0;
export const SELL = 1;
export type SideCode = 0 | 1;
export type Side = "BUY" | "SELL";

/** Codes follow the exchange's `MatchType` enum order. */
export const MATCH_TYPES = ["COMPLEMENTARY", "MINT", "MERGE"] as const;
export type MatchType = (typeof MATCH_TYPES)[number];
export const COMPLEMENTARY = 0;
export const MINT = 1;
export const MERGE = 2;

/** Non-trade transactions. RESOLUTION has no wallet; REWARD has no market. */
export const OP_TYPES = ["SPLIT", "MERGE", "CONVERSION", "REDEEM", "REWARD", "RESOLUTION"] as const;
export type OpType = (typeof OP_TYPES)[number];
export const OP_SPLIT = 0;
export const OP_MERGE = 1;
export const OP_CONVERSION = 2;
export const OP_REDEEM = 3;
export const OP_REWARD = 4;
export const OP_RESOLUTION = 5;

/** Ground-truth behaviour of a wallet (what the analytics should discover): the archetypes the population draws. */
export const ARCHETYPES = [
  "retail",
  "noise",
  "skilled",
  "favourite_farmer",
  "volume_bot",
  "market_maker",
  "wash_trader",
  "whale",
  "aligned_whale",
  "negrisk_converter",
] as const;
export type PopulationArchetype = (typeof ARCHETYPES)[number];

/**
 * The informed layer's fresh wallets (informed.ts), taken from the population's retail wallets: insiders, and the
 * two decoy kinds that are fresh wallets too (the third, `late_whale`, is a whale of the population).
 */
export const FRESH_ARCHETYPES = ["insider", "fresh_loser", "hub_funded_fresh"] as const;
/** Every archetype a wallet can have; a wallet's archetype code is its index here. */
export const WALLET_ARCHETYPES = [...ARCHETYPES, ...FRESH_ARCHETYPES] as const;
export type Archetype = (typeof WALLET_ARCHETYPES)[number];

/** An informed bet's kind: an insider's, or a decoy's that looks like one on every axis but one (informed.ts). */
export const INFORMED_KINDS = ["insider", "fresh_loser", "late_whale", "hub_funded_fresh"] as const;
export type InformedKind = (typeof INFORMED_KINDS)[number];

export interface Tag {
  id: string;
  label: string;
  slug: string;
}

/** the venue's fee schedule: taker fee = C * rate * p * (1 - p), rounded to 5 decimals; makers pay none. */
export interface FeeSchedule {
  rate: number;
  /** rate in basis points (700 for 0.07). */
  rateBps: number;
  exponent: number;
  takerOnly: true;
  rebateRate: number;
}

export type MarketStatus = "open" | "pending" | "resolved";
export type Resolution = "YES" | "NO" | "50-50";
export type EventKind = "single" | "ladder" | "negrisk";

export interface TerritoryPlace {
  /** `capture` (the city), `capture-all` (all of the city), `enter` (a village). */
  kind: "capture" | "capture-all" | "enter";
  name: string;
  slugName: string;
  lat: number;
  lon: number;
}

export interface WorldEvent {
  index: number;
  /** Gamma event id: a numeric string. */
  id: string;
  slug: string;
  title: string;
  description: string;
  category: Category;
  tags: readonly Tag[];
  kind: EventKind;
  negRisk: boolean;
  negRiskMarketId: string | null;
  /** NegRiskAdapter fee of convertPositions, in basis points (0 for plain events). */
  convertFeeBips: number;
  marketIndexes: readonly number[];
  startDate: number;
  endDate: number;
  image: string;
}

export interface WorldMarket {
  index: number;
  /** Gamma market id: a numeric string. */
  id: string;
  conditionId: string;
  questionId: string;
  yesTokenId: string;
  noTokenId: string;
  eventIndex: number;
  slug: string;
  question: string;
  description: string;
  groupItemTitle: string | null;
  image: string;
  category: Category;
  tags: readonly Tag[];
  negRisk: boolean;
  negRiskMarketId: string | null;
  /** Position of the market's question inside its NegRisk event (bit of convertPositions' indexSet). */
  negRiskQuestionIndex: number | null;
  fee: FeeSchedule;
  createdAt: number;
  startDate: number;
  /** The market's scheduled end (its question's deadline). */
  endDate: number;
  /** Trading stops here: the end date, or earlier when the question was decided early (a capture). */
  tradingStop: number;
  /** Status as of the world's end. */
  status: MarketStatus;
  resolution: Resolution | null;
  /** ConditionResolution time (closedTime); null unless resolved. */
  resolvedAt: number | null;
  /** Hidden truth the simulation drew (0 YES wins, 1 NO wins, 2 50-50), also for open and pending markets. Never publish it. */
  truth: 0 | 1 | 2;
  /** Relative trading interest. */
  popularity: number;
  territory: TerritoryPlace | null;
}

export interface WorldWallet {
  index: number;
  /** The proxy wallet (lower-case): the address of every fill and position. */
  proxyWallet: string;
  /** The EOA that signs for the proxy. */
  signer: string;
  /** Profile name (username); empty when the wallet never set one. */
  name: string;
  /** Venue-generated two-word pseudonym, e.g. "Brisk-Heron". */
  pseudonym: string;
  bio: string;
  profileImage: string;
  archetype: Archetype;
  /** Wash ring or aligned-whale group number; -1 when the archetype has no group. */
  group: number;
  /** Probability of knowing the truth when choosing a side (edge); 0 for archetypes without edge. */
  knowledge: number;
  createdAt: number;
}

export interface WorldOptions {
  seed: number | string;
  markets?: number;
  wallets?: number;
  /** Target number of fills; the world holds this many give or take a handful. */
  fills?: number;
  days?: number;
  /** The world's last instant (unix seconds). Required: the world never reads the clock. */
  end: number;
}

export interface ResolvedWorldOptions {
  seed: number | string;
  markets: number;
  wallets: number;
  fills: number;
  days: number;
  end: number;
  /** end - days * 86400. */
  start: number;
}

/** One wallet's side of one order fill (docs/METRICS.md, the ledger's input). */
export interface FillView {
  index: number;
  match: number;
  wallet: number;
  /** Account of the counterparty: the taker for a maker fill, the first maker for the taker's fill. */
  counterparty: number;
  market: number;
  token: number;
  outcome: OutcomeIndex;
  side: Side;
  role: "maker" | "taker";
  /** Shares, micro-units. */
  size: number;
  /** Price of this fill's token, micro-units. */
  price: number;
  /** size * price / 1e6, exact. */
  usd: number;
  /** Taker fee in collateral micro-units (0 for makers). */
  fee: number;
  ts: number;
  block: number;
  logIndex: number;
  entryType: MatchType;
  exchangeVersion: 1 | 2;
}

export interface MatchView {
  index: number;
  ts: number;
  block: number;
  /** Position of the transaction in its block. */
  txIndex: number;
  /** Log index of the transaction's first log. */
  logIndex: number;
  market: number;
  type: MatchType;
  /** Price of the taker's token, micro-units. */
  takerPrice: number;
  takerOutcome: OutcomeIndex;
  takerSide: Side;
  firstFill: number;
  fillCount: number;
  /** The taker's fill is the match's last. */
  takerFill: number;
  exchangeVersion: 1 | 2;
}

export interface OpView {
  index: number;
  type: OpType;
  /** -1 for RESOLUTION. */
  wallet: number;
  /** -1 for REWARD; the event's first market for CONVERSION. */
  market: number;
  /** -1 for REWARD. */
  event: number;
  /** SPLIT/MERGE: collateral = shares of each outcome; CONVERSION: NO shares given up per question; REDEEM: YES shares redeemed; REWARD: collateral. */
  amount: number;
  /** REDEEM: NO shares redeemed; otherwise 0. */
  amount2: number;
  /** CONVERSION: the indexSet (bit i = question i's NO given up); otherwise 0. */
  indexSet: number;
  /** REDEEM: collateral paid out; CONVERSION: collateral received; otherwise 0. */
  payout: number;
  ts: number;
  block: number;
  txIndex: number;
  /** First log of the transaction. */
  logIndex: number;
  /** The log that carries the wallet's record (opLogLayout): its activity key. */
  bookedLogIndex: number;
}
