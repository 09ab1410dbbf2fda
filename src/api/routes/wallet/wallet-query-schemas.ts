/** Query schemas of the wallet core endpoints and the wallet search (their responses: wallet-schemas.ts). */
import { Type, type TInteger } from "typebox";
import { Limit, Offset } from "../../params.js";
import { CLOSED_SORTS } from "../../../analytics/wallet/wallet-positions.js";
import { ActivityType } from "./wallet-schemas.js";

/** The largest page of open positions, and the whole list without `limit`. */
export const POSITIONS_CAP = 500;

/** params.ts `Limit`, typed as the integer it is. */
const IntLimit = (options: Parameters<typeof Limit>[0]) => Limit(options) as TInteger;

export const View = Type.Union([Type.Literal("proxy"), Type.Literal("signer"), Type.Literal("union")], {
  default: "proxy",
  description:
    "proxy: the proxy wallet's stored figures (fast); signer: the signing EOA's figures, read live from the venue; union: both merged (live, may be slow; 502 when the venue is down)",
});

/** Optional proxy wallet override of the position endpoints. */
export const ProxyParam = Type.String({
  pattern: "^(0x[0-9a-fA-F]{40})?$",
  default: "",
  description:
    "the proxy wallet to read when the path address is its signer (EOA); empty: resolved from the stored profile",
});

const ClosedSort = Type.Union(
  CLOSED_SORTS.map((s) => Type.Literal(s)),
  {
    default: "recent",
    description: "recent: closed_ts desc; oldest; pnl: best first; pnl_asc: worst first; size: buy_cost desc",
  },
);

const PRICE_BOUND = (what: string) =>
  Type.Number({ minimum: 0, maximum: 1, default: 0, description: `${what} average entry price (0..1); 0 = no bound` });

/** The overview and rankings: which figures answer. */
export const ViewQuery = Type.Object({ view: View });

/** Pending redemptions and the wallet insights: the proxy override alone. */
export const ProxyQuery = Type.Object({ proxy: ProxyParam });

export const PositionsQuery = Type.Object({
  proxy: ProxyParam,
  limit: Type.Optional(IntLimit({ max: POSITIONS_CAP })),
  offset: Offset,
});

export const ClosedQuery = Type.Object({
  proxy: ProxyParam,
  limit: IntLimit({ default: 200, max: 1000 }),
  offset: Offset,
  sort: ClosedSort,
  min_buy_cost: Type.Number({
    minimum: 0,
    default: 0,
    description: "keep positions whose buy_cost is at least this (USD)",
  }),
  avg_entry_min: PRICE_BOUND("lowest"),
  avg_entry_max: PRICE_BOUND("highest"),
});

/** The raw fills (v2 and public v1). */
export const TradesQuery = Type.Object({
  limit: IntLimit({ default: 100, max: 500 }),
  offset: Offset,
  since: Type.Integer({
    minimum: 0,
    default: 0,
    description: "exclusive lower bound (unix s); 0 or omitted = the last 30 days; 1 = the full archive",
  }),
  before: Type.Integer({ minimum: 0, default: 0, description: "exclusive upper bound (unix s); 0 = none" }),
});

export const ActivityQuery = Type.Object({
  limit: IntLimit({ default: 100, max: 500 }),
  offset: Offset,
  type: Type.Optional(ActivityType),
});

export const SearchQuery = Type.Object({
  q: Type.String({ default: "", maxLength: 200, description: "0x address prefix, display name or pseudonym" }),
});
