/**
 * Data API payloads (the venue's Data API) and the user P&L curve. Fields the normalizers need are
 * required; profile and display fields are optional, so a missing `bio` never costs Pelagic a fill.
 */
import { Type, type Static } from "typebox";
import { DecimalTokenId, Hex32, HexAddress, Maybe, Side, defineShape } from "./shape.js";

const Price = Type.Number({ minimum: 0, maximum: 1 });
const UnixSeconds = Type.Integer({ minimum: 0 });
const Text = Maybe(Type.String());

const profileFields = {
  name: Text,
  pseudonym: Text,
  bio: Text,
  profileImage: Text,
  profileImageOptimized: Text,
};

const marketDisplayFields = {
  title: Text,
  slug: Text,
  icon: Text,
  eventSlug: Text,
  outcome: Text,
};

export const DataTradeRowSchema = Type.Object({
  proxyWallet: HexAddress,
  side: Side,
  asset: DecimalTokenId,
  conditionId: Hex32,
  size: Type.Number({ minimum: 0 }),
  price: Price,
  timestamp: UnixSeconds,
  outcomeIndex: Type.Integer({ minimum: 0 }),
  transactionHash: Hex32,
  ...marketDisplayFields,
  ...profileFields,
});

export const ACTIVITY_TYPES = [
  "TRADE",
  "SPLIT",
  "MERGE",
  "REDEEM",
  "REWARD",
  "CONVERSION",
  "MAKER_REBATE",
  "TAKER_REBATE",
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

/** REDEEM and REWARD rows carry `asset:""`, `side:""`, `price:0`, `outcomeIndex:999`; REWARD and rebate rows `conditionId:""`. */
export const DataActivityRowSchema = Type.Object({
  proxyWallet: HexAddress,
  timestamp: UnixSeconds,
  type: Type.Enum(ACTIVITY_TYPES),
  conditionId: Type.Union([Hex32, Type.Literal("")]),
  size: Type.Number(),
  usdcSize: Type.Number(),
  transactionHash: Hex32,
  price: Type.Number({ minimum: 0 }),
  asset: Type.Union([DecimalTokenId, Type.Literal("")]),
  side: Type.Union([Side, Type.Literal("")]),
  outcomeIndex: Type.Integer({ minimum: 0 }),
  ...marketDisplayFields,
  ...profileFields,
});

export const DataPositionRowSchema = Type.Object({
  proxyWallet: HexAddress,
  asset: DecimalTokenId,
  conditionId: Hex32,
  size: Type.Number(),
  avgPrice: Type.Number(),
  initialValue: Type.Number(),
  currentValue: Type.Number(),
  cashPnl: Type.Number(),
  percentPnl: Maybe(Type.Number()),
  totalBought: Type.Number(),
  realizedPnl: Type.Number(),
  percentRealizedPnl: Maybe(Type.Number()),
  curPrice: Type.Number(),
  redeemable: Type.Boolean(),
  mergeable: Type.Boolean(),
  outcomeIndex: Type.Integer({ minimum: 0 }),
  eventId: Maybe(Type.Union([Type.String(), Type.Integer()])),
  oppositeOutcome: Text,
  oppositeAsset: Maybe(Type.Union([DecimalTokenId, Type.Literal("")])),
  endDate: Text,
  negativeRisk: Maybe(Type.Boolean()),
  ...marketDisplayFields,
});

export const DataClosedPositionRowSchema = Type.Object({
  proxyWallet: HexAddress,
  asset: DecimalTokenId,
  conditionId: Hex32,
  avgPrice: Type.Number(),
  totalBought: Type.Number(),
  realizedPnl: Type.Number(),
  curPrice: Type.Number(),
  timestamp: UnixSeconds,
  outcomeIndex: Type.Integer({ minimum: 0 }),
  oppositeOutcome: Text,
  oppositeAsset: Maybe(Type.Union([DecimalTokenId, Type.Literal("")])),
  endDate: Text,
  ...marketDisplayFields,
});

export const DataValueSchema = Type.Array(Type.Object({ user: HexAddress, value: Type.Number() }));
export const DataTradedSchema = Type.Object({ user: HexAddress, traded: Type.Integer({ minimum: 0 }) });

export const DataHolderSchema = Type.Object({
  proxyWallet: HexAddress,
  asset: DecimalTokenId,
  amount: Type.Number(),
  outcomeIndex: Type.Integer({ minimum: 0 }),
  displayUsernamePublic: Maybe(Type.Boolean()),
  ...profileFields,
});
export const DataHoldersSchema = Type.Array(
  Type.Object({ token: DecimalTokenId, holders: Type.Array(DataHolderSchema) }),
);

export const LeaderboardRowSchema = Type.Object({
  rank: Type.String({ pattern: "^[0-9]+$" }),
  proxyWallet: HexAddress,
  userName: Text,
  vol: Type.Number(),
  pnl: Type.Number(),
  profileImage: Text,
  xUsername: Text,
  verifiedBadge: Maybe(Type.Boolean()),
});

/** One point of `user-pnl-api` `/user-pnl`: `t` unix seconds, `p` lifetime P&L in USD. */
export const PnlPointSchema = Type.Object({ t: UnixSeconds, p: Type.Number() });
export const PnlCurveSchema = Type.Array(PnlPointSchema);

/** The body of the HTTP 400 past a pagination ceiling: `{"error":"max historical trades offset of 10000 exceeded"}`. */
export const OffsetCeilingErrorSchema = Type.Object({ error: Type.String({ pattern: "[Oo]ffset" }) });

export const DataTradesPayloadSchema = Type.Array(DataTradeRowSchema);
export const DataActivityPayloadSchema = Type.Array(DataActivityRowSchema);
export const DataPositionsPayloadSchema = Type.Array(DataPositionRowSchema);
export const DataClosedPositionsPayloadSchema = Type.Array(DataClosedPositionRowSchema);
export const LeaderboardPayloadSchema = Type.Array(LeaderboardRowSchema);

export type DataTradeRow = Static<typeof DataTradeRowSchema>;
export type DataActivityRow = Static<typeof DataActivityRowSchema>;
export type DataPositionRow = Static<typeof DataPositionRowSchema>;
export type DataClosedPositionRow = Static<typeof DataClosedPositionRowSchema>;
export type DataValue = Static<typeof DataValueSchema>;
export type DataTraded = Static<typeof DataTradedSchema>;
export type DataHolder = Static<typeof DataHolderSchema>;
export type DataHolders = Static<typeof DataHoldersSchema>;
export type LeaderboardRow = Static<typeof LeaderboardRowSchema>;
export type PnlPoint = Static<typeof PnlPointSchema>;
export type OffsetCeilingError = Static<typeof OffsetCeilingErrorSchema>;

export const DataTradeRowShape = defineShape("data-api /trades row", DataTradeRowSchema);
export const DataActivityRowShape = defineShape("data-api /activity row", DataActivityRowSchema);
export const DataPositionRowShape = defineShape("data-api /positions row", DataPositionRowSchema);
export const DataClosedPositionRowShape = defineShape("data-api /closed-positions row", DataClosedPositionRowSchema);
export const DataValueShape = defineShape("data-api /value", DataValueSchema);
export const DataTradedShape = defineShape("data-api /traded", DataTradedSchema);
export const DataHoldersShape = defineShape("data-api /holders", DataHoldersSchema);
export const LeaderboardRowShape = defineShape("data-api /v1/leaderboard row", LeaderboardRowSchema);
export const PnlPointShape = defineShape("user-pnl point", PnlPointSchema);
export const OffsetCeilingErrorShape = defineShape("offset ceiling error", OffsetCeilingErrorSchema);
