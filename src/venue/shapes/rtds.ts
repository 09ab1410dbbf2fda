/** Real-time data service messages (the venue's RTDS websocket). */
import { Type, type Static } from "typebox";
import { DecimalTokenId, Hex32, HexAddress, Maybe, NumericString, Side, defineShape } from "./shape.js";

export const RtdsSubscriptionSchema = Type.Object({
  topic: Type.String(),
  type: Type.String(),
  /** A JSON-encoded string, e.g. "{\"event_slug\":\"...\"}" or "{\"market_slug\":\"...\"}". */
  filters: Type.Optional(Type.String()),
});

export const RtdsSubscribeMessageSchema = Type.Object({
  action: Type.Union([Type.Literal("subscribe"), Type.Literal("unsubscribe")]),
  subscriptions: Type.Array(RtdsSubscriptionSchema, { minItems: 1 }),
});

export const RtdsEnvelopeSchema = Type.Object({
  connection_id: Maybe(Type.String()),
  topic: Type.String(),
  type: Type.String(),
  /** Milliseconds since the epoch (the payload's own `timestamp` is in seconds). */
  timestamp: Type.Integer({ minimum: 0 }),
  payload: Type.Unknown(),
});

const Text = Maybe(Type.String());

/** A `trades` payload: one row per wallet side of a fill; no trade id. */
export const RtdsTradePayloadSchema = Type.Object({
  asset: DecimalTokenId,
  conditionId: Hex32,
  outcomeIndex: Type.Integer({ minimum: 0 }),
  price: Type.Number({ minimum: 0, maximum: 1 }),
  proxyWallet: HexAddress,
  side: Side,
  size: Type.Number({ minimum: 0 }),
  timestamp: Type.Integer({ minimum: 0 }),
  transactionHash: Hex32,
  /** The charged fee in collateral, when present. */
  fee: Maybe(Type.Union([Type.Number({ minimum: 0 }), NumericString])),
  bio: Text,
  eventSlug: Text,
  icon: Text,
  name: Text,
  outcome: Text,
  profileImage: Text,
  pseudonym: Text,
  slug: Text,
  title: Text,
});

/** the venue's documentation names the `orders_matched` type but not its fields; the venue's client documents the trade row for it. */
export const RtdsOrdersMatchedPayloadSchema = RtdsTradePayloadSchema;

export type RtdsSubscription = Static<typeof RtdsSubscriptionSchema>;
export type RtdsSubscribeMessage = Static<typeof RtdsSubscribeMessageSchema>;
export type RtdsEnvelope = Static<typeof RtdsEnvelopeSchema>;
export type RtdsTradePayload = Static<typeof RtdsTradePayloadSchema>;
export type RtdsOrdersMatchedPayload = Static<typeof RtdsOrdersMatchedPayloadSchema>;

export const RtdsSubscribeMessageShape = defineShape("rtds subscribe message", RtdsSubscribeMessageSchema);
export const RtdsEnvelopeShape = defineShape("rtds envelope", RtdsEnvelopeSchema);
export const RtdsTradePayloadShape = defineShape("rtds trades payload", RtdsTradePayloadSchema);
export const RtdsOrdersMatchedPayloadShape = defineShape("rtds orders_matched payload", RtdsOrdersMatchedPayloadSchema);

export const RTDS_ACTIVITY_TOPIC = "activity";
