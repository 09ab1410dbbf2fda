/**
 * Schemas of the funding routes (issue 52). The contract does not show them; the decision:
 * docs/decisions.md, "Funding: paths and clusters from collateral transfers".
 */
import { Type } from "typebox";
import { Nullable } from "../../nullable.js";
import { ADDRESS_PATTERN, Limit, Offset } from "../../params.js";

const Address = Type.String({ description: "address, lower-cased" });
const Usd = (description: string) => Type.Number({ description: `${description} (USD)` });

export const ClusterParams = Type.Object({
  cluster_id: Type.String({
    pattern: ADDRESS_PATTERN,
    description: "a funding cluster: its funder's address (0x followed by 40 hex digits)",
  }),
});

const ClusterRef = Type.Object({
  cluster_id: Type.String({ description: "the cluster's id: its funder's address" }),
  funder: Address,
  funder_hops: Nullable(
    Type.Integer(),
    "transfers from the funder to this wallet; null when it joined through another shared funder",
  ),
  size: Type.Integer({ description: "wallets in the cluster" }),
});

const Funder = Type.Object({
  address: Address,
  hop: Type.Integer({ description: "transfers between it and the wallet: 1 for a direct funder" }),
  funded: Type.String({ description: "the address it funded on the way to the wallet (the wallet at hop 1)" }),
  kind: Type.Union(
    [Type.Literal("hub"), Type.Literal("busy_account"), Type.Literal("wallet"), Type.Literal("account")],
    {
      description:
        "hub: an exchange or bridge of the hub table (ends a path); busy_account: funded FUNDING_HUB_FANOUT traced addresses or more (a hub too); wallet: a wallet Pelagic knows; account: any other address",
    },
  ),
  hub_name: Nullable(Type.String(), "the hub's name, for a hub of the table"),
  usd: Usd("collateral it sent to `funded`, over the kept transfers"),
  transfers: Type.Integer({ description: "kept transfers from it to `funded`" }),
  first_ts: Type.Integer({ description: "its first transfer to `funded` (unix seconds)" }),
});

const Path = Type.Object({
  addresses: Type.Array(Address, { description: "the accounts the collateral came through, nearest first" }),
  ends: Type.Union([Type.Literal("hub"), Type.Literal("hop_limit"), Type.Literal("unfunded")], {
    description: "hub: at a hub; hop_limit: FUNDING_HOPS transfers back; unfunded: at an account with no funding read",
  }),
  hub_name: Nullable(Type.String(), "the hub a path ends at"),
  usd: Usd("the path's first transfer into the wallet, summed per funder"),
});

export const WalletFundingBody = Type.Object({
  wallet: Address,
  traced: Type.Boolean({ description: "whether the wallet's incoming transfers were read (false: queued)" }),
  traced_to_block: Nullable(Type.Integer(), "the last block read for it"),
  hop_limit: Type.Integer({ description: "FUNDING_HOPS: how many transfers back funding is followed" }),
  funded_usd: Usd("collateral received from its direct funders, over the kept transfers"),
  first_funded_at: Nullable(Type.Integer(), "its first funding transfer (unix seconds)"),
  funders: Type.Array(Funder, { description: "every funder within the hop limit, hop by hop, biggest first" }),
  paths: Type.Array(Path, { description: "paths back from its biggest funders (3 per account, 20 at most)" }),
  cluster: Nullable(ClusterRef, "its funding cluster; null when it shares no non-hub funder with another wallet"),
});

const Member = Type.Object({
  wallet: Address,
  name: Nullable(Type.String()),
  funder_hops: Nullable(
    Type.Integer(),
    "transfers from the cluster's funder; null when it joined through another shared funder",
  ),
  funded_usd: Usd("collateral from its direct funders"),
  first_funded_at: Nullable(Type.Integer()),
  total_pnl: Nullable(Type.Number(), "its total P&L (USD); null before the Deriver wrote its statistics"),
  total_volume: Nullable(Type.Number()),
  total_trades: Type.Integer(),
  is_smart: Type.Boolean(),
});

const CombinedPosition = Type.Object({
  condition_id: Type.String(),
  market_id: Nullable(Type.String()),
  market_title: Nullable(Type.String()),
  slug: Nullable(Type.String()),
  outcome: Type.Union([Type.Literal("YES"), Type.Literal("NO")]),
  members: Type.Integer({ description: "members holding or having held it" }),
  bought_usd: Usd("bought over the positions' lives"),
  open_shares: Type.Number({ description: "shares still held" }),
  current_price: Nullable(Type.Number(), "the outcome's price (its payout once resolved)"),
  open_value_usd: Nullable(Type.Number(), "open shares at the current price (USD)"),
  realized_pnl: Usd("realized P&L, before fees"),
  first_ts: Type.Integer(),
  last_ts: Type.Integer(),
});

export const ClusterQuery = Type.Object({
  positions: Limit({
    default: 50,
    max: 500,
    description: "combined positions to return, the most bought first (1..500)",
  }),
});

export const ClusterBody = Type.Object({
  cluster_id: Type.String(),
  funder: Address,
  funder_kind: Type.Union([Type.Literal("wallet"), Type.Literal("account")]),
  size: Type.Integer(),
  funded_usd: Usd("collateral the members received from their direct funders"),
  total_pnl: Usd("the members' total P&L"),
  total_volume: Usd("the members' volume"),
  members: Type.Array(Member),
  positions: Type.Array(CombinedPosition, { description: "the members' positions summed per market and outcome" }),
});

export const ClustersQuery = Type.Object({
  limit: Limit({ default: 50, max: 500 }),
  offset: Offset,
  min_size: Type.Integer({
    minimum: 2,
    maximum: 10_000,
    default: 2,
    description: "clusters of at least this many wallets",
  }),
});

export const ClustersBody = Type.Object({
  total: Type.Integer({ description: "clusters of at least min_size wallets" }),
  has_more: Type.Boolean(),
  clusters: Type.Array(
    Type.Object({
      cluster_id: Type.String(),
      funder: Address,
      size: Type.Integer(),
      total_pnl: Usd("the members' total P&L"),
      total_volume: Usd("the members' volume"),
    }),
  ),
});
