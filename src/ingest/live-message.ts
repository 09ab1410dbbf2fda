/**
 * The message ingest publishes on the platform pub/sub channel `trades` for every live trade (one wallet's side
 * of one fill), whether it came from the RTDS feed or from /trades polling while the feed was down. JSON; amounts
 * in micro-units like the store; `key` is the trade's natural key, the same from either path, so a relay can
 * drop repeats.
 */
import { Type, type Static } from "typebox";
import { defineShape, type ApiFill, type WalletProfile } from "../venue/index.js";

export const LIVE_TRADES_CHANNEL = "trades";

const Text = Type.Union([Type.String(), Type.Null()]);

export const LiveTradeMessageSchema = Type.Object({
  type: Type.Literal("trade"),
  /** Which path delivered it. */
  via: Type.Union([Type.Literal("rtds"), Type.Literal("poll")]),
  /** `data:<tx>:<wallet>:<asset>:<side>:<size>:<price>`, as the Data API fills are keyed in the store. */
  key: Type.String(),
  txHash: Type.String(),
  wallet: Type.String(),
  conditionId: Type.String(),
  tokenId: Type.String(),
  outcomeIndex: Type.Integer(),
  outcome: Type.Union([Type.Literal("YES"), Type.Literal("NO"), Type.Null()]),
  outcomeLabel: Text,
  side: Type.Union([Type.Literal("BUY"), Type.Literal("SELL")]),
  /** Shares, micro-units. */
  size: Type.Integer(),
  /** Price, micro-units (1,000,000 = 1 USD a share). */
  price: Type.Integer(),
  /** USD micro-units. */
  usd: Type.Integer(),
  /** Fee in USD micro-units, when the feed said. */
  fee: Type.Union([Type.Integer(), Type.Null()]),
  /** Unix seconds of the trade. */
  ts: Type.Integer(),
  /** Milliseconds since the epoch when ingest received it. */
  receivedAtMs: Type.Integer(),
  title: Text,
  slug: Text,
  eventSlug: Text,
  name: Text,
  pseudonym: Text,
  profileImage: Text,
  /** Optional: messages published before it was added lack it. */
  bio: Type.Optional(Text),
});

export type LiveTradeMessage = Static<typeof LiveTradeMessageSchema>;
export const LiveTradeMessageShape = defineShape("live trade message", LiveTradeMessageSchema);

export function liveTradeMessage(
  fill: ApiFill,
  profile: WalletProfile,
  key: string,
  via: LiveTradeMessage["via"],
  receivedAtMs: number,
): LiveTradeMessage {
  return {
    type: "trade",
    via,
    key,
    txHash: fill.txHash,
    wallet: fill.wallet,
    conditionId: fill.conditionId,
    tokenId: fill.tokenId,
    outcomeIndex: fill.outcomeIndex,
    outcome: fill.outcomeSide,
    outcomeLabel: fill.outcomeLabel,
    side: fill.direction,
    size: fill.sizeMicro,
    price: fill.priceMicro,
    usd: fill.usdMicro,
    fee: fill.feeMicro,
    ts: fill.timestamp,
    receivedAtMs,
    title: fill.title,
    slug: fill.slug,
    eventSlug: fill.eventSlug,
    name: profile.name,
    pseudonym: profile.pseudonym,
    profileImage: profile.profileImage,
    bio: profile.bio,
  };
}

/** A message read back from the channel; null when it is not one (another publisher, a newer format). */
export function parseLiveTradeMessage(text: string): LiveTradeMessage | null {
  try {
    const value: unknown = JSON.parse(text);
    return LiveTradeMessageShape.is(value) ? value : null;
  } catch {
    return null;
  }
}
