/**
 * Route access declarations. Every route states who may call it and how it pays for the call:
 * `config: { access: access.premiumXApiKey }`. The gate (gate.ts) refuses to register a route without one.
 */
import type { FastifyRequest } from "fastify";

/** Where a route reads the API key from (the contract's header table). */
export type KeyHeaders = "x-api-key" | "bearer" | "either";

export interface Access {
  /**
   * public: anyone; budget per client IP (or per key, when a valid key is sent).
   * premium: a valid key on the Premium plan; budget per key.
   * key-optional: answers with or without a key (key verification).
   * local: the local host only; external callers get 404.
   */
  readonly kind: "public" | "premium" | "key-optional" | "local";
  readonly headers: KeyHeaders;
  /**
   * Requests of the budget one call consumes, when not 1: a fixed number (expensive reads), or one that depends
   * on the validated body (batch calls: the wallet count, of which 1 is charged on receipt whatever the body).
   */
  readonly cost?: number | ((request: FastifyRequest) => number);
}

export const access = {
  /** Free reads: no key, throttled per IP. */
  public: { kind: "public", headers: "either" },
  /** Premium `/api/v2/*`: `X-API-Key` specifically. */
  premiumXApiKey: { kind: "premium", headers: "x-api-key" },
  /** Premium `/api/public/v1/*` and SSE streams: Bearer or `X-API-Key`. */
  premiumAnyHeader: { kind: "premium", headers: "either" },
  /** `/isw/premium/*` mirrors: Bearer with a Premium plan. */
  premiumBearer: { kind: "premium", headers: "bearer" },
  keyOptional: { kind: "key-optional", headers: "either" },
  localOnly: { kind: "local", headers: "either" },
} as const satisfies Record<string, Access>;

/** An expensive read: costs `cost` requests of the budget (RATE_HEAVY_READ_COST). */
export function heavy(base: Access, cost: number): Access {
  return { ...base, cost };
}

/** A batch route: costs as many requests as the body's list has items (at least 1). */
export function batch(base: Access, field: string): Access {
  return {
    ...base,
    cost: (request) => {
      const list = (request.body as Record<string, unknown> | undefined)?.[field];
      return Array.isArray(list) ? Math.max(1, list.length) : 1;
    },
  };
}

declare module "fastify" {
  interface FastifyContextConfig {
    access?: Access;
  }
}
