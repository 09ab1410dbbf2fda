/**
 * Data API, user P&L and RTDS payloads → Pelagic's records. Pure; inputs are validated by their shapes.
 * Amounts become micro-unit integers (toMicro: exact decimal rounding), wallets and hashes lower case.
 * The functions throw RangeError only for amounts beyond 2^53 micro-units (a malformed record).
 */
import { productMicro, toMicro } from "../units.js";
import type {
  ActivityType,
  DataActivityRow,
  DataClosedPositionRow,
  DataHolders,
  DataPositionRow,
  DataTradeRow,
  LeaderboardRow,
  PnlPoint,
} from "./data-api.js";
import type { RtdsTradePayload } from "./rtds.js";

export type OutcomeSide = "YES" | "NO";
export type Direction = "BUY" | "SELL";

/** Outcome index 0 is YES, 1 is NO; anything else (REDEEM's 999) is no side. */
export function outcomeSideOf(outcomeIndex: number): OutcomeSide | null {
  return outcomeIndex === 0 ? "YES" : outcomeIndex === 1 ? "NO" : null;
}

/**
 * One wallet's side of a fill as the Data API `/trades` or the RTDS feed reports it. Natural key
 * (docs/METRICS.md): (txHash, wallet, tokenId, direction, sizeMicro, priceMicro).
 */
export interface ApiFill {
  readonly source: "data-api" | "rtds";
  readonly txHash: string;
  readonly wallet: string;
  readonly conditionId: string;
  readonly tokenId: string;
  readonly outcomeIndex: number;
  readonly outcomeSide: OutcomeSide | null;
  readonly outcomeLabel: string | null;
  readonly direction: Direction;
  /** Shares, micro-units. */
  readonly sizeMicro: number;
  /** Price, micro-units (1_000_000 = 1.00 USD a share). */
  readonly priceMicro: number;
  /** size × price in USD micro-units, computed exactly from the venue's decimals. */
  readonly usdMicro: number;
  /** Fee in collateral micro-units; null when the source does not say (the Data API never does). */
  readonly feeMicro: number | null;
  /** Unix seconds. */
  readonly timestamp: number;
  readonly title: string | null;
  readonly slug: string | null;
  readonly eventSlug: string | null;
}

export interface WalletProfile {
  readonly wallet: string;
  readonly name: string | null;
  readonly pseudonym: string | null;
  readonly bio: string | null;
  readonly profileImage: string | null;
}

type ProfileFields = {
  proxyWallet: string;
  name?: string | null;
  pseudonym?: string | null;
  bio?: string | null;
  profileImage?: string | null;
};

/** The profile fields a row carries about its wallet; empty strings become null. */
export function walletProfileOf(row: ProfileFields): WalletProfile {
  return {
    wallet: row.proxyWallet.toLowerCase(),
    name: row.name || null,
    pseudonym: row.pseudonym || null,
    bio: row.bio || null,
    profileImage: row.profileImage || null,
  };
}

function fillFrom(source: ApiFill["source"], row: DataTradeRow | RtdsTradePayload, feeMicro: number | null): ApiFill {
  return {
    source,
    txHash: row.transactionHash.toLowerCase(),
    wallet: row.proxyWallet.toLowerCase(),
    conditionId: row.conditionId.toLowerCase(),
    tokenId: row.asset,
    outcomeIndex: row.outcomeIndex,
    outcomeSide: outcomeSideOf(row.outcomeIndex),
    outcomeLabel: row.outcome || null,
    direction: row.side,
    sizeMicro: toMicro(row.size),
    priceMicro: toMicro(row.price),
    usdMicro: productMicro(row.size, row.price),
    feeMicro,
    timestamp: row.timestamp,
    title: row.title || null,
    slug: row.slug || null,
    eventSlug: row.eventSlug || null,
  };
}

export function fillFromDataTrade(row: DataTradeRow): ApiFill {
  return fillFrom("data-api", row, null);
}

export function fillFromRtdsTrade(payload: RtdsTradePayload): ApiFill {
  return fillFrom("rtds", payload, payload.fee === undefined || payload.fee === null ? null : toMicro(payload.fee));
}

export interface ActivityRecord {
  readonly wallet: string;
  readonly timestamp: number;
  readonly type: ActivityType;
  readonly txHash: string;
  /** Null for REWARD and rebate rows. */
  readonly conditionId: string | null;
  /** Null for REDEEM and REWARD rows (they carry `asset:""`). */
  readonly tokenId: string | null;
  readonly direction: Direction | null;
  readonly outcomeIndex: number | null;
  readonly outcomeSide: OutcomeSide | null;
  /** Shares (TRADE) or the activity's token amount, micro-units. */
  readonly sizeMicro: number;
  /** USD micro-units. */
  readonly usdcSizeMicro: number;
  /** Null where the venue writes price 0 with no asset (REDEEM, REWARD). */
  readonly priceMicro: number | null;
  readonly title: string | null;
  readonly slug: string | null;
  readonly eventSlug: string | null;
}

const NO_OUTCOME_INDEX = 999;

export function activityRecordOf(row: DataActivityRow): ActivityRecord {
  const hasAsset = row.asset !== "";
  const outcomeIndex = row.outcomeIndex === NO_OUTCOME_INDEX ? null : row.outcomeIndex;
  return {
    wallet: row.proxyWallet.toLowerCase(),
    timestamp: row.timestamp,
    type: row.type,
    txHash: row.transactionHash.toLowerCase(),
    conditionId: row.conditionId === "" ? null : row.conditionId.toLowerCase(),
    tokenId: hasAsset ? row.asset : null,
    direction: row.side === "" ? null : row.side,
    outcomeIndex,
    outcomeSide: outcomeIndex === null ? null : outcomeSideOf(outcomeIndex),
    sizeMicro: toMicro(row.size),
    usdcSizeMicro: toMicro(row.usdcSize),
    priceMicro: hasAsset ? toMicro(row.price) : null,
    title: row.title || null,
    slug: row.slug || null,
    eventSlug: row.eventSlug || null,
  };
}

/** The venue's own view of one open position (its reference P&L numbers, to check Pelagic's ledger against). */
export interface VenuePositionRecord {
  readonly wallet: string;
  readonly tokenId: string;
  readonly conditionId: string;
  readonly outcomeIndex: number;
  readonly outcomeSide: OutcomeSide | null;
  readonly outcomeLabel: string | null;
  readonly oppositeTokenId: string | null;
  /** Shares, micro-units. */
  readonly sizeMicro: number;
  readonly totalBoughtMicro: number;
  /** Prices, micro-units. */
  readonly avgPriceMicro: number;
  readonly curPriceMicro: number;
  /** USD micro-units. */
  readonly initialValueMicro: number;
  readonly currentValueMicro: number;
  readonly cashPnlMicro: number;
  readonly realizedPnlMicro: number;
  /** Percent, as the venue computes it (null when it cannot). */
  readonly percentPnl: number | null;
  readonly percentRealizedPnl: number | null;
  readonly redeemable: boolean;
  readonly mergeable: boolean;
  readonly negativeRisk: boolean | null;
  readonly endTime: string | null;
  readonly eventId: string | null;
  readonly title: string | null;
  readonly slug: string | null;
  readonly eventSlug: string | null;
}

export function positionRecordOf(row: DataPositionRow): VenuePositionRecord {
  return {
    wallet: row.proxyWallet.toLowerCase(),
    tokenId: row.asset,
    conditionId: row.conditionId.toLowerCase(),
    outcomeIndex: row.outcomeIndex,
    outcomeSide: outcomeSideOf(row.outcomeIndex),
    outcomeLabel: row.outcome || null,
    oppositeTokenId: row.oppositeAsset || null,
    sizeMicro: toMicro(row.size),
    totalBoughtMicro: toMicro(row.totalBought),
    avgPriceMicro: toMicro(row.avgPrice),
    curPriceMicro: toMicro(row.curPrice),
    initialValueMicro: toMicro(row.initialValue),
    currentValueMicro: toMicro(row.currentValue),
    cashPnlMicro: toMicro(row.cashPnl),
    realizedPnlMicro: toMicro(row.realizedPnl),
    percentPnl: row.percentPnl ?? null,
    percentRealizedPnl: row.percentRealizedPnl ?? null,
    redeemable: row.redeemable,
    mergeable: row.mergeable,
    negativeRisk: row.negativeRisk ?? null,
    endTime: row.endDate || null,
    eventId: row.eventId === undefined || row.eventId === null ? null : String(row.eventId),
    title: row.title || null,
    slug: row.slug || null,
    eventSlug: row.eventSlug || null,
  };
}

export interface VenueClosedPositionRecord {
  readonly wallet: string;
  readonly tokenId: string;
  readonly conditionId: string;
  readonly outcomeIndex: number;
  readonly outcomeSide: OutcomeSide | null;
  readonly outcomeLabel: string | null;
  readonly oppositeTokenId: string | null;
  readonly avgPriceMicro: number;
  readonly curPriceMicro: number;
  readonly totalBoughtMicro: number;
  readonly realizedPnlMicro: number;
  /** Unix seconds: when the position closed. */
  readonly timestamp: number;
  readonly endTime: string | null;
  readonly title: string | null;
  readonly slug: string | null;
  readonly eventSlug: string | null;
}

export function closedPositionRecordOf(row: DataClosedPositionRow): VenueClosedPositionRecord {
  return {
    wallet: row.proxyWallet.toLowerCase(),
    tokenId: row.asset,
    conditionId: row.conditionId.toLowerCase(),
    outcomeIndex: row.outcomeIndex,
    outcomeSide: outcomeSideOf(row.outcomeIndex),
    outcomeLabel: row.outcome || null,
    oppositeTokenId: row.oppositeAsset || null,
    avgPriceMicro: toMicro(row.avgPrice),
    curPriceMicro: toMicro(row.curPrice),
    totalBoughtMicro: toMicro(row.totalBought),
    realizedPnlMicro: toMicro(row.realizedPnl),
    timestamp: row.timestamp,
    endTime: row.endDate || null,
    title: row.title || null,
    slug: row.slug || null,
    eventSlug: row.eventSlug || null,
  };
}

export interface HolderRecord {
  readonly tokenId: string;
  readonly wallet: string;
  readonly amountMicro: number;
  readonly outcomeIndex: number;
  readonly profile: WalletProfile;
}

export function holderRecordsOf(payload: DataHolders): HolderRecord[] {
  return payload.flatMap((group) =>
    group.holders.map((h) => ({
      tokenId: group.token,
      wallet: h.proxyWallet.toLowerCase(),
      amountMicro: toMicro(h.amount),
      outcomeIndex: h.outcomeIndex,
      profile: walletProfileOf(h),
    })),
  );
}

export interface LeaderboardRecord {
  readonly rank: number;
  readonly wallet: string;
  readonly userName: string | null;
  readonly volumeMicro: number;
  readonly pnlMicro: number;
  readonly profileImage: string | null;
  readonly xUsername: string | null;
  readonly verifiedBadge: boolean;
}

export function leaderboardRecordOf(row: LeaderboardRow): LeaderboardRecord {
  return {
    rank: Number(row.rank),
    wallet: row.proxyWallet.toLowerCase(),
    userName: row.userName || null,
    volumeMicro: toMicro(row.vol),
    pnlMicro: toMicro(row.pnl),
    profileImage: row.profileImage || null,
    xUsername: row.xUsername || null,
    verifiedBadge: row.verifiedBadge ?? false,
  };
}

/** A point of the venue's lifetime P&L curve. */
export interface PnlCurvePoint {
  /** Unix seconds. */
  readonly timestamp: number;
  /** Lifetime P&L in USD micro-units. */
  readonly pnlMicro: number;
}

export function pnlCurvePointOf(point: PnlPoint): PnlCurvePoint {
  return { timestamp: point.t, pnlMicro: toMicro(point.p) };
}
