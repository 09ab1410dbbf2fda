/** The key-oriented wallet routes' own schemas (the shared ones: wallet-schemas.ts, wallet-query-schemas.ts). */
import { Type } from "typebox";
import { BatchStatus, PositionsEnvelope, WalletOverview } from "./wallet-schemas.js";

export const AddressOrName = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: "^\\S+$",
  description: "a 0x wallet address or a venue username (or pseudonym)",
});

export const AddressOrNameParams = Type.Object({ address: AddressOrName });

export const Computing = Type.Object(
  {
    status: Type.Literal("computing"),
    detail: Type.String(),
    retry_after_seconds: Type.Integer(),
  },
  {
    description: "A very heavy wallet's overview is being computed in the background; retry after Retry-After seconds",
  },
);

export const ContractFields = {
  is_contract: Type.Optional(
    Type.Boolean({ description: "true when the address is an exchange contract (status not_found)" }),
  ),
  contract_type: Type.Optional(Type.String()),
};

export const BatchBody = (max: number) =>
  Type.Object({
    wallets: Type.Array(AddressOrName, {
      minItems: 1,
      maxItems: max,
      description: `addresses or usernames (at most ${max}); costs one request per wallet`,
    }),
  });

export const V1PositionsQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 0, description: "accepted, not enforced" })),
  offset: Type.Optional(Type.Integer({ minimum: 0, description: "accepted, not enforced" })),
});

/** What every batch item starts with: the wallet as sent, its address and its status. */
const BatchItem = {
  wallet: Type.String({ description: "as sent" }),
  address: Type.Union([Type.String(), Type.Null()]),
  status: BatchStatus,
};

export const BatchOverviewsBody = Type.Object({
  wallets: Type.Array(
    Type.Object({
      ...BatchItem,
      overview: Type.Union([WalletOverview, Type.Null()]),
      ...ContractFields,
    }),
  ),
  count: Type.Integer(),
});

export const BatchPositionsBody = Type.Object({
  wallets: Type.Array(
    Type.Object({
      ...BatchItem,
      positions: Type.Union([PositionsEnvelope.positions, Type.Null()]),
      source: Type.Union([Type.String(), Type.Null()]),
      is_estimated: Type.Union([Type.Boolean(), Type.Null()]),
      count: Type.Integer(),
      ...ContractFields,
    }),
  ),
  count: Type.Integer(),
});
