/**
 * The ledger's input records. Amounts of shares and collateral are integers in micro-units (1e-6), as on chain;
 * timestamps are unix seconds UTC. The store's rows are mapped to and from these in `src/derive/`.
 */

/** 0 = YES, 1 = NO. */
export type OutcomeIndex = 0 | 1;
export type OutcomeSide = "YES" | "NO";
/** A fill's direction from its wallet's point of view. */
export type Direction = "BUY" | "SELL";
/** How a fill's match settled (docs/METRICS.md, entry types). */
export type EntryType = "MINT" | "MERGE" | "COMPLEMENTARY";
/** A market's outcome. */
export type Resolution = "YES" | "NO" | "50-50";

/** One wallet's side of one order fill (a row of the `fills` table). */
export interface LedgerFill {
  readonly kind: "fill";
  readonly wallet: string;
  readonly tokenId: string;
  readonly conditionId: string;
  readonly outcomeIndex: OutcomeIndex;
  /** From the wallet's point of view. */
  readonly side: Direction;
  /** Shares, micro-units. */
  readonly size: number;
  /** Collateral exchanged, micro-units (size * price). The ledger derives its price from usd / size as the venue does. */
  readonly usd: number;
  /** 0..1, informational. */
  readonly price: number;
  /** Fee paid in collateral, micro-units. */
  readonly fee: number;
  readonly ts: number;
  readonly entryType: EntryType | null;
}

/** Split of collateral into a YES+NO pair, or merge of a pair back: `amount` micro-shares of each side. */
export interface SplitOrMergeActivity {
  readonly kind: "activity";
  readonly type: "SPLIT" | "MERGE";
  readonly wallet: string;
  readonly conditionId: string;
  readonly amount: number;
  readonly ts: number;
}

/** Redemption of a resolved market: the whole held amount of each side is sold at its payout. */
export interface RedeemActivity {
  readonly kind: "activity";
  readonly type: "REDEEM";
  readonly wallet: string;
  readonly conditionId: string;
  /** Payout of the YES side, 0..1 (NO gets 1 - payoutYes); null takes it from the market's resolution. */
  readonly payoutYes: number | null;
  readonly ts: number;
}

/**
 * NegRisk `convertPositions(marketId, indexSet, amount)`: the NO tokens of the questions in `indexSet`
 * are given up for YES of every other question of the event plus collateral.
 */
export interface ConversionActivity {
  readonly kind: "activity";
  readonly type: "CONVERSION";
  readonly wallet: string;
  /** The event's `negRiskMarketID`. */
  readonly negRiskEventId: string;
  /** Question indices whose NO position is given up (the set bits of the on-chain index set). */
  readonly indexSet: readonly number[];
  /** Micro-shares of each NO given up. */
  readonly amount: number;
  /** Micro-shares kept by the adapter (`amount * feeBips / 10000`); the wallet receives `amount - fee` of each YES. */
  readonly fee: number;
  readonly ts: number;
}

/** Liquidity rewards and fee rebates, micro-units of collateral. */
export interface IncomeActivity {
  readonly kind: "activity";
  readonly type: "REWARD" | "MAKER_REBATE" | "TAKER_REBATE";
  readonly wallet: string;
  readonly usd: number;
  readonly ts: number;
}

export type LedgerActivity = SplitOrMergeActivity | RedeemActivity | ConversionActivity | IncomeActivity;

export type LedgerEvent = LedgerFill | LedgerActivity;

/** What the ledger needs to know about a market (a row of `markets` plus its event's tags). */
export interface MarketFacts {
  readonly conditionId: string;
  readonly yesTokenId?: string | null;
  readonly noTokenId?: string | null;
  /** The venue's category, mapped by `categories.ts`. */
  readonly category: string | null;
  /** Tag labels or slugs of the market and its event, tried after `category`. */
  readonly tags?: readonly string[];
  /** The event the market belongs to; markets of one event form one cluster for the skill score. */
  readonly eventId?: string | null;
  /** `negRiskMarketID` of a NegRisk event; null for a plain binary market. */
  readonly negRiskEventId: string | null;
  /** Position of the question in its NegRisk event (the low byte of its questionId). */
  readonly questionIndex?: number | null;
  /** Number of questions of the NegRisk event. */
  readonly questionCount?: number | null;
  /**
   * The resolution and its time (`closedTime`). A resolution takes effect on each position before that
   * position's first later event, and on `advanceTo`; without a time it is not applied.
   */
  readonly resolution: Resolution | null;
  readonly resolvedAt: number | null;
  /** Current YES price 0..1 for unrealized P&L; null when unknown (the position is then valued at cost). */
  readonly priceYes: number | null;
  /** Current NO price; defaults to 1 - priceYes. */
  readonly priceNo?: number | null;
}
