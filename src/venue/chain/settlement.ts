/**
 * Fills from the exchanges' logs, classified by match type (the venue's Polygon contracts).
 *
 * One match emits, in log order: one OrderFilled per maker order (`maker` = that order's owner, `taker` =
 * the taker order's owner), then the taker order's own OrderFilled (its `taker` is the exchange), then
 * OrdersMatched. Each OrderFilled becomes one fill of its order's owner. A maker fill's match type follows
 * from the taker's side and its own: BUY+BUY = MINT, SELL+SELL = MERGE, otherwise COMPLEMENTARY.
 */
import type { DecodedVenueLog, Hex, OrderFilledEvent, OrdersMatchedEvent, LogPosition } from "./abi.js";
import { SIDE_BUY, SIDE_SELL } from "./abi.js";
import { exchangeVersion, type ExchangeVersion } from "../contracts.js";
import type { Direction } from "../shapes/normalize-wallet-data.js";
import { divRound } from "../units.js";

export type MatchType = "MINT" | "MERGE" | "COMPLEMENTARY";
export type FillRole = "MAKER" | "TAKER";

export interface ChainFill {
  readonly txHash: Hex;
  readonly logIndex: number;
  readonly blockNumber: number;
  /** The exchange contract that emitted the fill (lower case). */
  readonly exchange: Hex;
  readonly exchangeVersion: ExchangeVersion;
  readonly orderHash: Hex;
  /** The order's owner: the account the fill belongs to. */
  readonly wallet: Hex;
  /** Null when the fill is not part of a derivable match (e.g. an operator's direct fill). */
  readonly role: FillRole | null;
  /** The wallet on the other side: the taker for a maker fill, the first maker (log order) for the taker's fill. */
  readonly counterparty: Hex | null;
  readonly direction: Direction;
  /** The outcome token, as a decimal uint256 string. */
  readonly tokenId: string;
  /** Outcome tokens, micro-units. */
  readonly sizeMicro: number;
  /** Collateral paid or received, micro-units. */
  readonly usdMicro: number;
  /** usd / size in micro-units, truncated as the venue's P&L subgraph does. */
  readonly priceMicro: number;
  /** The fee as emitted, in `feeAsset` micro-units. */
  readonly feeMicro: number;
  /** V1 charges a BUY order's fee in the outcome tokens it receives; everything else pays in collateral. */
  readonly feeAsset: "COLLATERAL" | "TOKEN";
  /** The fee in collateral micro-units (a token fee valued at the fill's price). */
  readonly feeUsdMicro: number;
  readonly entryType: MatchType | null;
}

export interface SettlementAnomaly {
  readonly txHash: Hex;
  readonly logIndex: number;
  readonly reason: string;
}

export interface Settlement {
  readonly fills: ChainFill[];
  /** Logs that could not become fills, to log and count. */
  readonly anomalies: SettlementAnomaly[];
}

type OrderFilledLog = OrderFilledEvent & LogPosition;
type OrdersMatchedLog = OrdersMatchedEvent & LogPosition;

export function matchTypeOf(takerDirection: Direction, makerDirection: Direction): MatchType {
  if (takerDirection === "BUY" && makerDirection === "BUY") return "MINT";
  if (takerDirection === "SELL" && makerDirection === "SELL") return "MERGE";
  return "COMPLEMENTARY";
}

interface OrderTerms {
  readonly direction: Direction;
  readonly tokenId: bigint;
  readonly size: bigint;
  readonly usd: bigint;
}

/** Direction, token and amounts of one OrderFilled, from the order owner's point of view; a string on failure. */
export function orderTermsOf(log: OrderFilledEvent): OrderTerms | string {
  if (log.kind === "OrderFilledV1") {
    // Asset id 0 is collateral: the side that gives collateral is the BUY.
    if (log.makerAssetId === 0n && log.takerAssetId !== 0n) {
      return { direction: "BUY", tokenId: log.takerAssetId, size: log.takerAmountFilled, usd: log.makerAmountFilled };
    }
    if (log.takerAssetId === 0n && log.makerAssetId !== 0n) {
      return { direction: "SELL", tokenId: log.makerAssetId, size: log.makerAmountFilled, usd: log.takerAmountFilled };
    }
    return `asset ids ${log.makerAssetId}/${log.takerAssetId} name no single collateral leg`;
  }
  if (log.tokenId === 0n) return "token id 0";
  if (log.side === SIDE_BUY)
    return { direction: "BUY", tokenId: log.tokenId, size: log.takerAmountFilled, usd: log.makerAmountFilled };
  if (log.side === SIDE_SELL)
    return { direction: "SELL", tokenId: log.tokenId, size: log.makerAmountFilled, usd: log.takerAmountFilled };
  return `unknown side ${log.side}`;
}

function takerDirectionOf(matched: OrdersMatchedEvent): Direction | null {
  if (matched.kind === "OrdersMatchedV1") {
    if (matched.makerAssetId === 0n) return "BUY";
    return matched.takerAssetId === 0n ? "SELL" : null;
  }
  return matched.side === SIDE_BUY ? "BUY" : matched.side === SIDE_SELL ? "SELL" : null;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

class Builder {
  readonly fills: ChainFill[] = [];
  readonly anomalies: SettlementAnomaly[] = [];

  anomaly(log: LogPosition, reason: string): void {
    this.anomalies.push({ txHash: log.transactionHash, logIndex: log.logIndex, reason });
  }

  fill(
    log: OrderFilledLog,
    terms: OrderTerms,
    role: FillRole | null,
    counterparty: Hex | null,
    entryType: MatchType | null,
  ): void {
    if (terms.size === 0n) return this.anomaly(log, "zero size");
    if (exchangeVersion(log.maker)) return this.anomaly(log, "an exchange contract as the order's owner");
    if (terms.size > MAX_SAFE || terms.usd > MAX_SAFE || log.fee > MAX_SAFE)
      return this.anomaly(log, "amount beyond 2^53");
    const feeAsset = log.version === "v1" && terms.direction === "BUY" ? "TOKEN" : "COLLATERAL";
    this.fills.push({
      txHash: log.transactionHash,
      logIndex: log.logIndex,
      blockNumber: log.blockNumber,
      exchange: log.address,
      exchangeVersion: log.version,
      orderHash: log.orderHash,
      wallet: log.maker,
      role,
      counterparty,
      direction: terms.direction,
      tokenId: terms.tokenId.toString(),
      sizeMicro: Number(terms.size),
      usdMicro: Number(terms.usd),
      priceMicro: Number((terms.usd * 1_000_000n) / terms.size),
      feeMicro: Number(log.fee),
      feeAsset,
      feeUsdMicro: feeAsset === "TOKEN" ? Number(divRound(log.fee * terms.usd, terms.size)) : Number(log.fee),
      entryType,
    });
  }
}

/** The taker's fill spans all its makers; when they differ it takes the type covering most of its size. */
function dominantMatchType(parts: readonly { type: MatchType; size: bigint }[]): MatchType | null {
  const totals = new Map<MatchType, bigint>();
  for (const p of parts) totals.set(p.type, (totals.get(p.type) ?? 0n) + p.size);
  let best: MatchType | null = null;
  for (const type of ["MINT", "MERGE", "COMPLEMENTARY"] as const) {
    const total = totals.get(type);
    if (total !== undefined && (best === null || total > (totals.get(best) ?? 0n))) best = type;
  }
  return best;
}

function settleMatch(
  b: Builder,
  makers: readonly OrderFilledLog[],
  taker: OrderFilledLog | null,
  matched: OrdersMatchedLog | null,
): void {
  const takerTerms = taker ? orderTermsOf(taker) : null;
  if (typeof takerTerms === "string" && taker) b.anomaly(taker, takerTerms);
  const takerDirection =
    takerTerms && typeof takerTerms !== "string" ? takerTerms.direction : matched ? takerDirectionOf(matched) : null;
  const parts: { type: MatchType; size: bigint }[] = [];
  for (const maker of makers) {
    const terms = orderTermsOf(maker);
    if (typeof terms === "string") {
      b.anomaly(maker, terms);
      continue;
    }
    const type = takerDirection ? matchTypeOf(takerDirection, terms.direction) : null;
    if (type) parts.push({ type, size: terms.size });
    b.fill(maker, terms, "MAKER", maker.taker, type);
  }
  if (taker && takerTerms && typeof takerTerms !== "string") {
    // One rule for every match: the taker's counterparty is its first maker in log order (each maker's is the taker).
    const counterparty = makers[0]?.maker ?? null;
    b.fill(taker, takerTerms, "TAKER", counterparty, dominantMatchType(parts));
  }
}

function settleOrphans(b: Builder, orphans: readonly OrderFilledLog[]): void {
  for (const log of orphans) {
    const terms = orderTermsOf(log);
    if (typeof terms === "string") b.anomaly(log, terms);
    else b.fill(log, terms, null, exchangeVersion(log.taker) ? null : log.taker, null);
  }
}

/** Walks one transaction's logs of one exchange in log order, closing a match at each taker fill or OrdersMatched. */
function settleGroup(b: Builder, logs: readonly (OrderFilledLog | OrdersMatchedLog)[]): void {
  let pending: OrderFilledLog[] = [];
  let lastTakerHash: Hex | null = null;
  for (const log of logs) {
    if (log.kind === "OrderFilledV1" || log.kind === "OrderFilledV2") {
      if (log.taker !== log.address) {
        pending.push(log);
        continue;
      }
      const makers = pending.filter((p) => p.taker === log.maker);
      settleOrphans(
        b,
        pending.filter((p) => p.taker !== log.maker),
      );
      settleMatch(b, makers, log, null);
      lastTakerHash = log.orderHash;
      pending = [];
    } else {
      if (log.takerOrderHash === lastTakerHash && pending.length === 0) {
        lastTakerHash = null;
        continue;
      }
      // The taker's own fill is missing: the maker fills can still be classified from OrdersMatched.
      const makers = pending.filter((p) => p.taker === log.takerOrderMaker);
      settleOrphans(
        b,
        pending.filter((p) => p.taker !== log.takerOrderMaker),
      );
      if (makers.length === 0) b.anomaly(log, "OrdersMatched without fills");
      settleMatch(b, makers, null, log);
      lastTakerHash = null;
      pending = [];
    }
  }
  settleOrphans(b, pending);
}

/** Whether a decoded log is one of the exchanges' (OrderFilled or OrdersMatched, V1 or V2): what settlement reads. */
export function isExchangeEvent(log: DecodedVenueLog): log is OrderFilledLog | OrdersMatchedLog {
  return (
    log.kind === "OrderFilledV1" ||
    log.kind === "OrderFilledV2" ||
    log.kind === "OrdersMatchedV1" ||
    log.kind === "OrdersMatchedV2"
  );
}

/**
 * Fills of every exchange OrderFilled among `logs` (any number of transactions, any order; other events
 * are ignored). Fills come out in (block, log index) order.
 */
export function settleFills(logs: readonly DecodedVenueLog[]): Settlement {
  const groups = new Map<string, (OrderFilledLog | OrdersMatchedLog)[]>();
  for (const log of logs) {
    if (!isExchangeEvent(log)) continue;
    const key = `${log.transactionHash}|${log.address}`;
    const group = groups.get(key);
    if (group) group.push(log);
    else groups.set(key, [log]);
  }
  const b = new Builder();
  for (const group of groups.values())
    settleGroup(
      b,
      group.sort((x, y) => x.logIndex - y.logIndex),
    );
  b.fills.sort((x, y) => x.blockNumber - y.blockNumber || x.logIndex - y.logIndex);
  return { fills: b.fills, anomalies: b.anomalies };
}
