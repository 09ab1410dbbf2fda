/**
 * Parameters and guards shared by the route families: wallet addresses (and the contract-address rule),
 * market ids, limits and offsets. A schema here validates the request (422 on a bad value) and documents the
 * parameter in the OpenAPI document at once.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { Type } from "typebox";
import { CATEGORIES, CATEGORY_LABELS, parseCategory, type Category } from "../venue/categories.js";
import { exchangeContractType } from "../venue/contracts.js";
import { validationError } from "./errors.js";

export const ADDRESS_PATTERN = "^0x[0-9a-fA-F]{40}$";

/** A wallet address in a path: 0x and 40 hex digits, any case (the API answers with it lower-cased). */
export const WalletAddress = Type.String({
  pattern: ADDRESS_PATTERN,
  description: "wallet address: 0x followed by 40 hex digits",
});

export const WalletParams = Type.Object({ address: WalletAddress });

/** `?limit=`: an integer from 1 to `max`, with a default when the contract names one. */
export function Limit(options: { default?: number; max: number; description?: string }) {
  return Type.Integer({
    minimum: 1,
    maximum: options.max,
    ...(options.default === undefined ? {} : { default: options.default }),
    description: options.description ?? `rows to return (1..${options.max})`,
  });
}

/** A query of `?limit=` alone. */
export const LimitQuery = (options: Parameters<typeof Limit>[0]) => Type.Object({ limit: Limit(options) });

export const Offset = Type.Integer({ minimum: 0, default: 0, description: "rows to skip" });

/** The body the four exchange contracts answer with on any wallet endpoint (contract, Errors section). */
export const ContractAddressBody = Type.Object(
  {
    error: Type.String(),
    is_contract: Type.Literal(true),
    contract_type: Type.Union([
      Type.Literal("CTF Exchange V1"),
      Type.Literal("CTF Exchange V2"),
      Type.Literal("NegRisk CTF V1"),
      Type.Literal("NegRisk CTF V2"),
    ]),
    address: Type.String(),
  },
  {
    $id: "ContractAddressError",
    description: "The address is one of the venue's exchange contracts, not a user wallet (HTTP 400)",
  },
);

/**
 * HTTP status of the contract-address body, which the contract leaves open:
 * docs/decisions.md, "The contracts are one table".
 */
export const CONTRACT_ADDRESS_STATUS = 400;

export function contractAddressBody(address: string) {
  const type = exchangeContractType(address);
  if (!type) return null;
  return {
    error: `${address.toLowerCase()} is the venue's ${type} exchange contract, not a user wallet: it has no wallet statistics`,
    is_contract: true as const,
    contract_type: type,
    address: address.toLowerCase(),
  };
}

/**
 * preHandler for every route with an `:address` path parameter: the exchange contracts answer with the
 * contract-address body and never reach the handler. Register it once per wallet route plugin:
 * `app.addHook("preHandler", refuseContractAddresses)`.
 */
export function refuseContractAddresses(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  // A callback hook: an async one costs a promise and a turn of the microtask queue on every request. A hook that
  // answers does not call `done`, so the handler never runs.
  const address = (request.params as { address?: unknown } | undefined)?.address;
  const body = typeof address === "string" ? contractAddressBody(address) : undefined;
  if (body) reply.code(CONTRACT_ADDRESS_STATUS).send(body);
  else done();
}

/** A route's error responses for its schema, with the contract-address body where the route takes a wallet. */
export const walletErrorResponses = {
  400: { $ref: "ContractAddressError#" },
  404: { $ref: "ErrorBody#" },
} as const;

/** A `category` query parameter as a category (null: all), or a 422 naming what it takes. */
export function categoryFilter(value: string): Category | null {
  const category = parseCategory(value);
  if (category === undefined) {
    const names = ["All", ...CATEGORIES.map((c) => CATEGORY_LABELS[c])].map((n) => `'${n}'`).join(", ");
    throw validationError(
      ["query", "category"],
      `Input should be one of ${names} (any case; the codes ${CATEGORIES.join(", ")} too)`,
      "enum",
    );
  }
  return category;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A YYYY-MM-DD query parameter as the unix seconds of that UTC day's start (or last second); null for ""; 422 for an impossible date. */
export function dayBound(name: string, value: string, end: boolean): number | null {
  if (value === "") return null;
  const ms = Date.parse(`${value}T00:00:00Z`);
  if (!DATE.test(value) || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) {
    throw validationError(
      ["query", name],
      "Input should be a valid date in the format YYYY-MM-DD",
      "date_from_datetime_parsing",
    );
  }
  return ms / 1000 + (end ? 86_399 : 0);
}
