/**
 * AI analysis of a wallet: `GET /api/v2/wallet/{address}/ai-analysis` (Premium, X-API-Key) serves the saved report,
 * or queues its generation and answers 404 with `{status: "pending", retry_after_seconds}` (the contract's 404 "no
 * saved AI analysis yet"); `POST .../ai-analysis/generate?force=` (local host only) returns a report younger than
 * AI_ANALYSIS_FRESH_HOURS unchanged unless force=true, and generates one now otherwise. The plugin also gives the
 * process its queue worker (`app.aiAnalysis`), started when the app is ready and stopped when it closes.
 */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyRequest } from "fastify";
import { Type } from "typebox";
import { AnalysisQueue } from "../../../ai/analysis-queue.js";
import type { SavedAnalysis } from "../../../ai/analysis-store.js";
import { AnalysisInputs, analysedWallet } from "../../../ai/inputs.js";
import { GenerationError } from "../../../ai/report-writer.js";
import { access } from "../../access.js";
import type { AppContext } from "../../context.js";
import { HttpError, notFound } from "../../errors.js";
import { clientOf } from "../../gate.js";
import { WalletParams, refuseContractAddresses } from "../../params.js";
import { Nullable } from "../../nullable.js";

declare module "fastify" {
  interface FastifyInstance {
    /** This process's AI analyses: the queue worker and what the routes ask of it. */
    aiAnalysis: AnalysisQueue;
  }
}

const TAGS = ["wallet AI analysis"];

const AnalysisBody = Type.Object(
  {
    address: Type.String({
      description: "the wallet analysed (the proxy wallet whose statistics answer for the address), lower case",
    }),
    status: Type.Literal("ready"),
    generator: Type.Union([Type.Literal("model"), Type.Literal("deterministic")], {
      description:
        "model: written by AI_MODEL; deterministic: written from the statistics by rules (no model configured)",
    }),
    model: Nullable(Type.String({ description: "the model that wrote it" })),
    prompt_version: Nullable(Type.String({ description: "the prompt file it was written with (model reports)" })),
    generated_at: Type.Integer({ description: "unix seconds" }),
    expires_at: Type.Integer({
      description: "generated_at + AI_ANALYSIS_FRESH_HOURS: until then the generate call reuses it",
    }),
    stale: Type.Boolean({
      description: "older than AI_ANALYSIS_FRESH_HOURS: still served, and its regeneration is queued",
    }),
    report: Type.String({ description: "the whole report, Markdown, one `## Title` per section" }),
    sections: Type.Array(Type.Object({ key: Type.String(), title: Type.String(), text: Type.String() }), {
      description: "summary, style, edge_and_skill, verdicts, strengths, risks, recent_changes, in that order",
    }),
    inputs: AnalysisInputs,
  },
  { description: "The saved AI analysis of a wallet, with the statistics it quotes" },
);

const NotYetBody = Type.Object(
  {
    detail: Type.String(),
    status: Type.Optional(
      Type.Literal("pending", { description: "present when the analysis is queued: the contract's pending reply" }),
    ),
    retry_after_seconds: Type.Optional(
      Type.Integer({ description: "when to ask again (also the Retry-After header)" }),
    ),
    attempts: Type.Optional(Type.Integer({ description: "failed generation attempts so far" })),
    last_error: Type.Optional(
      Nullable(
        Type.String({
          description:
            "class of the last failure: timeout, model_unreachable, model_http_error, malformed_answer, unsupported_figure, trading_advice, other",
        }),
      ),
    ),
  },
  {
    description:
      "No saved AI analysis yet (status pending: its generation is queued), or an unknown wallet (detail only)",
  },
);

const ServerError = { $ref: "ErrorBody#" } as const;

function analysisBody(saved: SavedAnalysis, now: number, freshSeconds: number) {
  const { wallet, generated_at, generator, model, prompt_version, report, sections, inputs } = saved;
  const expires = generated_at + freshSeconds;
  return {
    address: wallet,
    status: "ready" as const,
    generator,
    model,
    prompt_version,
    generated_at,
    expires_at: expires,
    stale: now >= expires,
    report,
    sections,
    inputs,
  };
}

const routes: FastifyPluginAsyncTypebox<{ ctx: AppContext; queue: AnalysisQueue }> = async (app, { ctx, queue }) => {
  app.addHook("preHandler", refuseContractAddresses);
  // The queue and the saved reports are written here and read back at once: the primary, never a lagging replica.
  const { primary: store, platform, config } = ctx;
  const settings = config.ai;

  const walletOf = async (address: string) => {
    const wallet = await analysedWallet(store, address);
    if (!wallet) throw notFound(`Wallet ${address.toLowerCase()} not found`);
    return wallet;
  };

  /** Queues a wallet for a client: 429 past its RATE_AI_ANALYSES_PER_MINUTE, 503 when the shared queue is full. */
  const enqueueFor = async (request: FastifyRequest, wallet: string) => {
    const perMinute = settings.queuedPerMinute;
    if (!(await platform.rateLimiter.consume(`ai-analysis:${clientOf(request)}`, perMinute, 1)).allowed) {
      throw new HttpError(
        429,
        `New AI analyses are limited to ${perMinute} per minute per client; saved and pending ones are free to read. Retry after 60 seconds.`,
        { "Retry-After": "60" },
      );
    }
    if ((await queue.jobs.queuedCount()) >= settings.maxQueued) {
      throw new HttpError(503, "The AI analysis queue is full; retry in a few minutes.", {
        "Retry-After": String(settings.retryAfterSeconds),
      });
    }
    await queue.jobs.enqueue(wallet, platform.clock.now());
    queue.kick();
  };

  app.get(
    "/api/v2/wallet/:address/ai-analysis",
    {
      config: { access: access.premiumXApiKey },
      schema: {
        summary: "Saved AI analysis of a wallet",
        description:
          "The saved analysis (200), or 404 with status=pending and retry_after_seconds (and Retry-After) while none is saved yet: the first call queues its generation. " +
          "A saved analysis older than AI_ANALYSIS_FRESH_HOURS (24) is still served (stale=true) and its regeneration queued. Queueing a new analysis counts against RATE_AI_ANALYSES_PER_MINUTE per client.",
        tags: TAGS,
        params: WalletParams,
        querystring: Type.Object({}),
        response: { 200: AnalysisBody, 400: { $ref: "ContractAddressError#" }, 404: NotYetBody, 503: ServerError },
      },
    },
    async (request, reply) => {
      const wallet = await walletOf(request.params.address);
      const now = platform.clock.now();
      const saved = await queue.jobs.readReport(wallet);
      if (saved) {
        const body = analysisBody(saved, now, queue.freshSeconds);
        if (body.stale && !(await queue.jobs.readJob(wallet))) await enqueueFor(request, wallet).catch(() => undefined);
        return body;
      }
      if (!(await queue.jobs.readJob(wallet))) await enqueueFor(request, wallet);
      const job = await queue.jobs.readJob(wallet);
      const retryAfter = job ? await queue.expectedWaitSeconds(job, now) : 1;
      return reply
        .code(404)
        .header("Retry-After", String(retryAfter))
        .send({
          detail: `No saved AI analysis of ${wallet} yet: its generation is queued. Retry after ${retryAfter} seconds.`,
          status: "pending" as const,
          retry_after_seconds: retryAfter,
          attempts: job?.attempts ?? 0,
          last_error: job?.last_error ?? null,
        });
    },
  );

  app.post(
    "/api/v2/wallet/:address/ai-analysis/generate",
    {
      config: { access: access.localOnly },
      schema: {
        summary: "Generate a wallet's AI analysis (local host only)",
        description:
          "Internal: answers the local host only (404 to anyone else, and to a forwarded request). Returns the saved analysis unchanged when it is younger than " +
          "AI_ANALYSIS_FRESH_HOURS (24) and force is false; otherwise generates one now and returns it. 502 when the model gives no usable report (the wallet stays queued and is retried); 503 before the store's first sync is done.",
        tags: TAGS,
        params: WalletParams,
        querystring: Type.Object({
          force: Type.Boolean({ default: false, description: "regenerate even when a fresh analysis is saved" }),
        }),
        response: {
          200: AnalysisBody,
          400: { $ref: "ContractAddressError#" },
          404: { $ref: "ErrorBody#" },
          502: ServerError,
          503: ServerError,
        },
      },
    },
    async (request) => {
      const wallet = await walletOf(request.params.address);
      if (!ctx.readiness.ready) {
        throw new HttpError(
          503,
          "The store is still in its first sync: an analysis now would quote incomplete statistics. Retry once /api/v1/health says ready.",
        );
      }
      let saved: SavedAnalysis | null;
      try {
        saved = await queue.generateNow(wallet, request.query.force);
      } catch (error) {
        if (!(error instanceof GenerationError)) throw error;
        throw new HttpError(
          502,
          `The model gave no usable report (${error.kind}); the wallet stays queued and its generation is retried.`,
        );
      }
      if (!saved) throw notFound(`Wallet ${wallet} not found`);
      return analysisBody(saved, platform.clock.now(), queue.freshSeconds);
    },
  );
};

/** Registered with its decoration visible to the whole app (skip-override), its routes in a plugin of their own. */
export const aiAnalysisRoutes: FastifyPluginAsyncTypebox<AppContext> = Object.assign(
  async (app: Parameters<FastifyPluginAsyncTypebox<AppContext>>[0], ctx: AppContext) => {
    const queue = new AnalysisQueue(
      { config: ctx.config, store: ctx.primary, clock: ctx.platform.clock, readiness: ctx.readiness },
      app.log,
    );
    app.decorate("aiAnalysis", queue);
    app.addHook("onReady", async () => queue.start());
    app.addHook("onClose", async () => queue.stop());
    await app.register(routes, { ctx, queue });
  },
  { [Symbol.for("skip-override")]: true },
);
