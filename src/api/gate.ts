/**
 * The gate: authentication, plans and rate limits for every route, from its `access` declaration.
 * - onRoute: refuses a route without a declaration; documents its security and 401/403/422/429 bodies in OpenAPI.
 * - onRequest: local-only check, key extraction and verification, then the rate limit: the route's fixed cost,
 *   or 1 on receipt for a batch route (malformed or oversized, it still cost that);
 * - preHandler: the rest of a batch route's cost, which depends on its validated body.
 * Keys are never logged: only their display prefix is kept on the request. Checks are kept per process
 * (src/api/key-checks.ts), found by the key's hash; buildApp has them dropped on every announced key change.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from "fastify";
import { Type } from "typebox";
import type { KeyCheck } from "../accounts/keys.js";
import { keyStoreHint } from "../config/index.js";
import type { RateDecision } from "../platform/rate-limiter.js";
import type { SlotLease } from "../platform/slots.js";
import type { Access } from "./access.js";
import type { AppContext } from "./context.js";
import { HttpError } from "./errors.js";

export interface PresentedKey {
  /** Value of X-API-Key, if sent. */
  xApiKey?: string;
  /** The token of `Authorization: Bearer <token>`, if sent. */
  bearer?: string;
  /** An Authorization header that is not a Bearer token. */
  otherAuthorization?: boolean;
}

export interface RequestAuth {
  presented: PresentedKey;
  /** The key this route accepts, from the headers it reads. */
  key?: string;
  /** Which header it came from. */
  header?: "X-API-Key" | "Authorization";
  check?: KeyCheck;
  rate?: RateDecision;
}

declare module "fastify" {
  interface FastifyRequest {
    auth: RequestAuth;
  }
}

const ErrorDetail = (description: string) => Type.Object({ detail: Type.String() }, { description });

const SECURITY: Record<Access["headers"], Array<Record<string, string[]>>> = {
  "x-api-key": [{ ApiKeyHeader: [] }],
  bearer: [{ BearerAuth: [] }],
  either: [{ ApiKeyHeader: [] }, { BearerAuth: [] }],
};

export const SECURITY_SCHEMES = {
  ApiKeyHeader: { type: "apiKey", in: "header", name: "X-API-Key", description: "API key (Premium)" },
  BearerAuth: { type: "http", scheme: "bearer", description: "API key as a Bearer token (Premium)" },
} as const;

const BEARER = /^Bearer\s+(\S+)\s*$/i;

function presentedKey(request: FastifyRequest): PresentedKey {
  const out: PresentedKey = {};
  const xApiKey = request.headers["x-api-key"];
  const apiKey = typeof xApiKey === "string" ? xApiKey.trim() : "";
  if (apiKey) out.xApiKey = apiKey;
  const authorization = request.headers.authorization;
  const bearer = typeof authorization === "string" ? authorization.trim() : "";
  if (bearer) {
    const match = BEARER.exec(bearer);
    if (match) out.bearer = match[1];
    else out.otherAuthorization = true;
  }
  return out;
}

/** The authentication of a request: what it presented, and the key this route accepts from it, if any. */
function authOf(presented: PresentedKey, headers: Access["headers"]): RequestAuth {
  if (headers !== "bearer" && presented.xApiKey) return { presented, key: presented.xApiKey, header: "X-API-Key" };
  if (headers !== "x-api-key" && presented.bearer) return { presented, key: presented.bearer, header: "Authorization" };
  return { presented };
}

/** The rule of a request that matched no route (a 404). */
const UNMATCHED: Access = { kind: "public", headers: "either" };

const HOW_TO_SEND: Record<Access["headers"], string> = {
  "x-api-key": "send it as X-API-Key: <API_KEY>",
  bearer: "send it as Authorization: Bearer <API_KEY>",
  either: "send it as Authorization: Bearer <API_KEY> or X-API-Key: <API_KEY>",
};

function missingKeyDetail(presented: PresentedKey, headers: Access["headers"]): string {
  const inOtherHeader = (headers === "x-api-key" && presented.bearer) || (headers === "bearer" && presented.xApiKey);
  if (inOtherHeader) return `API key sent in a header this endpoint does not read: ${HOW_TO_SEND[headers]}`;
  if (presented.otherAuthorization) return `Authorization header is not a Bearer token: ${HOW_TO_SEND[headers]}`;
  return `Missing API key: ${HOW_TO_SEND[headers]}`;
}

/** `storeHint`: which store the server reads keys from (keyStoreHint), so a key made against another one is found out. */
function refusalOf(check: KeyCheck, storeHint: string): HttpError | undefined {
  switch (check.status) {
    case "invalid":
      return new HttpError(
        401,
        `Invalid API key: no such key in the store this server reads, ${storeHint}; a key is made with \`pelagic keys create\` against that same store`,
      );
    case "revoked":
      return new HttpError(401, "API key has been revoked");
    case "rotated":
      return new HttpError(401, "API key has been rotated; use the new key");
    case "valid":
      return check.plan === "premium"
        ? undefined
        : new HttpError(403, "This endpoint needs a Premium plan; the key's account is on the free plan");
  }
}

/** A request from the local host itself, not forwarded by a proxy. */
export function isLocalRequest(request: FastifyRequest): boolean {
  const remote = request.socket.remoteAddress ?? "";
  const forwarded = request.headers["x-forwarded-for"] !== undefined || request.headers.forwarded !== undefined;
  return !forwarded && (remote === "127.0.0.1" || remote === "::1" || remote === "::ffff:127.0.0.1");
}

/** Who a request counts against: its key when it sent a valid one, else its client IP. */
export function clientOf(request: FastifyRequest): string {
  const check = request.auth?.check;
  return check?.status === "valid" ? `key:${check.keyId}` : `ip:${request.ip}`;
}

export function registerGate(app: FastifyInstance, ctx: AppContext): void {
  const limits = ctx.config.limits;
  app.decorateRequest("auth", undefined as unknown as RequestAuth);

  app.addHook("onRoute", (route: RouteOptions) => {
    const declared = (route.config as { access?: Access } | undefined)?.access;
    if (!declared) throw new Error(`route ${String(route.method)} ${route.url} declares no access (config.access)`);
    const schema = (route.schema ??= {}) as Record<string, unknown>;
    const responses = ((schema.response as Record<string, unknown> | undefined) ??= {});
    responses[422] ??= { $ref: "HTTPValidationError#" };
    responses[429] ??= ErrorDetail("Rate limit exceeded; retry after the Retry-After header (60 s)");
    if (declared.kind === "premium") {
      schema.security = SECURITY[declared.headers];
      responses[401] ??= ErrorDetail("Missing, invalid, rotated or revoked API key (detail says which)");
      responses[403] ??= ErrorDetail("Valid API key, but the plan is not Premium");
    }
    if (declared.cost !== undefined) {
      const cost =
        typeof declared.cost === "number"
          ? `${declared.cost} requests of the budget`
          : "one request of the budget per wallet (one on receipt whatever the body)";
      const sentence = `Costs ${cost} (header X-RateLimit-Consumed).`;
      const described = (schema.description as string | undefined) ?? "";
      // Once, where two routes share one schema object.
      if (!described.includes(sentence)) schema.description = `${described} ${sentence}`.trim();
    }
  });

  /** The budget's limit of a request: its key's when it sent a valid one, else its client IP's (clientOf). */
  const limitOf = (request: FastifyRequest): number => {
    const check = request.auth.check;
    if (check?.status !== "valid") return limits.freePerMinute;
    return check.rateLimitPerMinute ?? (check.plan === "premium" ? limits.premiumPerMinute : limits.freePerMinute);
  };

  /**
   * Consumes `cost`, sets the rate headers (X-RateLimit-Consumed, with what the request consumed before, on a
   * route that declares its cost), and throws 429 when the budget cannot take it.
   */
  const consume = async (
    request: FastifyRequest,
    reply: FastifyReply,
    cost: number,
    declaresCost: boolean,
    consumedBefore = 0,
  ) => {
    const decision = await ctx.platform.rateLimiter.consume(clientOf(request), limitOf(request), cost);
    request.auth.rate = decision;
    reply.header("X-RateLimit-Limit", decision.limit).header("X-RateLimit-Remaining", decision.remaining);
    if (declaresCost) reply.header("X-RateLimit-Consumed", consumedBefore + decision.consumed);
    if (!decision.allowed) {
      throw new HttpError(429, `Rate limit exceeded: ${decision.limit} requests per minute. Retry after 60 seconds.`, {
        "Retry-After": "60",
      });
    }
  };

  app.addHook("onRequest", async (request, reply) => {
    const rule: Access = request.routeOptions.config.access ?? UNMATCHED;
    if (rule.kind === "local") {
      request.auth = { presented: {} };
      if (isLocalRequest(request)) return;
      await consume(request, reply, 1, false);
      throw new HttpError(404, "Not Found");
    }
    const presented = presentedKey(request);
    const auth = authOf(presented, rule.headers);
    request.auth = auth;
    if (auth.key) auth.check = await ctx.keyChecks.check(auth.key);
    if (rule.kind === "premium") {
      const refusal = auth.key
        ? refusalOf(auth.check as KeyCheck, keyStoreHint(ctx.config.store))
        : new HttpError(401, missingKeyDetail(presented, rule.headers));
      if (refusal) {
        // A refused call still counts, against the client IP, so that guessing keys is throttled too.
        const { check } = request.auth;
        request.auth.check = undefined;
        await consume(request, reply, 1, false);
        request.auth.check = check;
        throw refusal;
      }
    }
    await consume(request, reply, typeof rule.cost === "number" ? rule.cost : 1, rule.cost !== undefined);
  });

  // A callback hook: most routes have nothing to do here, and an async hook costs a promise and a turn of the
  // microtask queue on every request.
  app.addHook("preHandler", (request, reply, done) => {
    const rule = request.routeOptions.config.access;
    if (typeof rule?.cost !== "function" || rule.kind === "local") return done();
    const rest = rule.cost(request) - 1;
    if (rest <= 0) return done();
    consume(request, reply, rest, true, 1).then(() => done(), done);
  });
}

/**
 * Takes one of the key's concurrent-stream slots (5 per key by default) for an SSE connection;
 * answers 429 when all are in use. Release the lease when the stream ends.
 */
export async function acquireStreamSlot(ctx: AppContext, request: FastifyRequest): Promise<SlotLease> {
  const check = request.auth.check;
  const bucket = check?.status === "valid" ? `stream:key:${check.keyId}` : `stream:ip:${request.ip}`;
  const lease = await ctx.platform.slots.acquire(
    bucket,
    ctx.config.limits.sseConnectionsPerKey,
    ctx.config.live.slotLeaseSeconds * 1000,
  );
  if (!lease) {
    throw new HttpError(429, `Too many concurrent streams: at most ${ctx.config.limits.sseConnectionsPerKey} per key`, {
      "Retry-After": "60",
    });
  }
  return lease;
}
