/** GET /api/v2/key/verify: says whether a key works, and if not whether the key, the subscription or the header is the problem. */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { access } from "../../access.js";
import type { AppContext } from "../../context.js";
import type { RequestAuth } from "../../gate.js";
import { Verify } from "./service-schemas.js";

const PROBLEMS = ["missing_key", "header", "invalid_key", "revoked_key", "rotated_key", "subscription"] as const;
type ProblemName = (typeof PROBLEMS)[number];
interface Verdict {
  valid: boolean;
  premium: boolean;
  problem: ProblemName | null;
  detail: string;
  key_prefix: string | null;
  plan: "free" | "premium" | null;
}

function verdict(auth: RequestAuth): Verdict {
  const none = { valid: false, premium: false, key_prefix: null, plan: null } as const;
  const { presented, check } = auth;
  if (presented.xApiKey && presented.bearer && presented.xApiKey !== presented.bearer) {
    return { ...none, problem: "header", detail: "X-API-Key and Authorization carry different keys; send one" };
  }
  if (!check) {
    if (presented.otherAuthorization) {
      return {
        ...none,
        problem: "header",
        detail: "Authorization must be 'Bearer <API_KEY>'; or send X-API-Key: <API_KEY>",
      };
    }
    return {
      ...none,
      problem: "missing_key",
      detail: "No key sent: use X-API-Key: <API_KEY> or Authorization: Bearer <API_KEY>",
    };
  }
  switch (check.status) {
    case "invalid":
      if (/^bearer\s/i.test(presented.xApiKey ?? "")) {
        return { ...none, problem: "header", detail: "X-API-Key takes the bare key, without 'Bearer'" };
      }
      return { ...none, problem: "invalid_key", detail: "The key is not a Pelagic API key, or was mistyped" };
    case "revoked":
      return { ...none, key_prefix: check.prefix, problem: "revoked_key", detail: "The key has been revoked" };
    case "rotated":
      return {
        ...none,
        key_prefix: check.prefix,
        problem: "rotated_key",
        detail: "The key has been rotated; use the new key",
      };
    case "valid": {
      const premium = check.plan === "premium";
      return {
        valid: true,
        premium,
        key_prefix: check.prefix,
        plan: check.plan,
        problem: premium ? null : "subscription",
        detail: premium
          ? "The key works for Premium endpoints"
          : "The key is valid, but its account is on the free plan: Premium endpoints answer 403",
      };
    }
  }
}

export const keyRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app) => {
  app.get(
    "/api/v2/key/verify",
    {
      config: { access: access.keyOptional },
      schema: {
        summary: "Check an API key",
        description: "Answers with or without a key. Never echoes the key: only its prefix.",
        tags: ["account"],
        response: { 200: Verify },
      },
    },
    async (request) => {
      const rate = request.auth.rate ?? { limit: 0, remaining: 0 };
      return {
        ...verdict(request.auth),
        header: request.auth.header ?? null,
        rate_limit: { limit: rate.limit, remaining: rate.remaining },
      };
    },
  );
};
