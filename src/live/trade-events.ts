/**
 * What the two streams send, one JSON object per `trade` event: the raw relay's fill (the venue's live feed row,
 * with when the relay received it and its transaction's settlement type) and the indexed stream's classified chain
 * fill (both parties, both directions, market metadata). The schemas are the OpenAPI description of the events.
 */
import { Type, type Static, type TSchema } from "typebox";
import type { LiveTradeMessage } from "../ingest/live-message.js";
import type { NewFill } from "../store/fills.js";
import type { Direction, EntryType } from "../store/schema.js";

const Nullable = <T extends TSchema>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description ? { description } : {});
const Side = Type.Union([Type.Literal("BUY"), Type.Literal("SELL")]);
const EntryTypeSchema = Type.Union([Type.Literal("MINT"), Type.Literal("MERGE"), Type.Literal("COMPLEMENTARY")]);

export const RelayTradeEventSchema = Type.Object(
  {
    asset: Type.String({ description: "conditional-token id (decimal)" }),
    conditionId: Type.String(),
    eventSlug: Nullable(Type.String()),
    slug: Nullable(Type.String(), "the market's slug"),
    proxyWallet: Type.String({ description: "the wallet of this row (lower case)" }),
    side: Side,
    price: Type.Number({ description: "0.0..1.0" }),
    size: Type.Number({ description: "shares" }),
    outcome: Nullable(Type.String()),
    outcomeIndex: Type.Integer(),
    name: Nullable(Type.String()),
    pseudonym: Nullable(Type.String()),
    bio: Nullable(Type.String()),
    profileImage: Nullable(Type.String()),
    title: Nullable(Type.String()),
    timestamp: Type.Integer({ description: "unix seconds of the trade" }),
    transactionHash: Type.String(),
    relay_received_at_ms: Type.Integer({
      description: "ms since the epoch when the relay received the fill, before the hold",
    }),
    settlement_type: Nullable(
      EntryTypeSchema,
      "the transaction's settlement mechanics, shared by all its fills: MINT, MERGE, COMPLEMENTARY (it holds a complementary component); null: not classified (a lone fill at the hold's edge, rows missing, a complex batch), never 'not a mint'",
    ),
    settlement_hold_ms: Type.Integer({
      description: "the hold during which a transaction's fills are grouped (LIVE_SETTLEMENT_HOLD_MS, 700)",
    }),
  },
  { $id: "LiveRelayTrade", description: "data of an `event: trade` frame of /api/public/v1/live/trades" },
);

export type RelayTradeEvent = Static<typeof RelayTradeEventSchema>;

export function relayTradeEvent(
  trade: LiveTradeMessage,
  settlementType: EntryType | null,
  holdMs: number,
): RelayTradeEvent {
  return {
    asset: trade.tokenId,
    conditionId: trade.conditionId,
    eventSlug: trade.eventSlug,
    slug: trade.slug,
    proxyWallet: trade.wallet,
    side: trade.side,
    price: trade.price / 1e6,
    size: trade.size / 1e6,
    outcome: trade.outcomeLabel,
    outcomeIndex: trade.outcomeIndex,
    name: trade.name,
    pseudonym: trade.pseudonym,
    bio: trade.bio ?? null,
    profileImage: trade.profileImage,
    title: trade.title,
    timestamp: trade.ts,
    transactionHash: trade.txHash,
    relay_received_at_ms: trade.receivedAtMs,
    settlement_type: settlementType,
    settlement_hold_ms: holdMs,
  };
}

export const IndexedTradeEventSchema = Type.Object(
  {
    entry_type: EntryTypeSchema,
    fill_role: Type.Union([Type.Literal("maker"), Type.Literal("taker")], {
      description:
        "whose fill this is: a maker order's (one per maker of the match) or the taker order's (spanning all its makers)",
    }),
    wallet: Type.String({ description: "the fill's owner: `maker` for a maker fill, `taker` for the taker's" }),
    maker: Nullable(Type.String(), "the maker order's owner (for the taker's fill, its first maker)"),
    taker: Nullable(Type.String(), "the taker order's owner"),
    maker_side: Side,
    taker_side: Side,
    price: Type.Number({ description: "price of the fill's own outcome token, 0..1" }),
    size: Type.Number({ description: "shares" }),
    usd_amount: Type.Number({ description: "collateral paid or received by the fill's owner, USD" }),
    fee_usd: Type.Number(),
    asset: Type.String({ description: "the fill's outcome token id" }),
    outcome: Nullable(Type.String()),
    outcome_index: Type.Integer(),
    condition_id: Type.String(),
    market_id: Nullable(Type.String()),
    market_slug: Nullable(Type.String()),
    title: Nullable(Type.String(), "the market's question"),
    event_slug: Nullable(Type.String()),
    event_title: Nullable(Type.String()),
    category: Nullable(Type.String()),
    transaction_hash: Type.String(),
    log_index: Nullable(Type.Integer()),
    block_number: Nullable(Type.Integer()),
    timestamp: Type.Integer({ description: "unix seconds of the block" }),
  },
  { $id: "LiveIndexedTrade", description: "data of an `event: trade` frame of /api/public/v1/live/trades-indexed" },
);

export type IndexedTradeEvent = Static<typeof IndexedTradeEventSchema>;

export interface MarketFacts {
  readonly marketId: string;
  readonly marketSlug: string;
  readonly title: string;
  readonly eventSlug: string | null;
  readonly eventTitle: string | null;
  readonly category: string | null;
}

const opposite = (side: Direction): Direction => (side === "BUY" ? "SELL" : "BUY");

/** The other party's direction: both BUY in a MINT, both SELL in a MERGE, opposite in a COMPLEMENTARY match. */
export function counterpartySide(entryType: EntryType, side: Direction): Direction {
  return entryType === "MINT" ? "BUY" : entryType === "MERGE" ? "SELL" : opposite(side);
}

/** The event of a classified chain fill (a maker's or a taker's, with its entry type), or null for any other. */
export function indexedTradeEvent(
  fill: NewFill,
  market: MarketFacts | undefined,
  outcome: string | undefined,
): IndexedTradeEvent | null {
  const entryType = fill.entry_type;
  if (!entryType || (fill.role !== "maker" && fill.role !== "taker")) return null;
  const maker = fill.role === "maker";
  const other = counterpartySide(entryType, fill.side);
  return {
    entry_type: entryType,
    fill_role: fill.role,
    wallet: fill.wallet,
    maker: maker ? fill.wallet : (fill.counterparty ?? null),
    taker: maker ? (fill.counterparty ?? null) : fill.wallet,
    maker_side: maker ? fill.side : other,
    taker_side: maker ? other : fill.side,
    price: fill.price,
    size: fill.size / 1e6,
    usd_amount: fill.usd / 1e6,
    fee_usd: (fill.fee ?? 0) / 1e6,
    asset: fill.token_id,
    outcome: outcome ?? null,
    outcome_index: fill.outcome_index,
    condition_id: fill.condition_id,
    market_id: market?.marketId ?? null,
    market_slug: market?.marketSlug ?? null,
    title: market?.title ?? null,
    event_slug: market?.eventSlug ?? null,
    event_title: market?.eventTitle ?? null,
    category: market?.category ?? null,
    transaction_hash: fill.tx_hash,
    log_index: fill.log_index ?? null,
    block_number: fill.block_number ?? null,
    timestamp: fill.ts,
  };
}
