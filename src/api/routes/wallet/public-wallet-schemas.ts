/** The key-oriented wallet routes' own schemas (the shared ones: wallet-schemas.ts). */
import { Type } from "typebox";

export const AddressOrName = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: "^\\S+$",
  description: "a 0x wallet address or a venue username (or pseudonym)",
});

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
