/**
 * AI analysis of a wallet: `GET /api/v2/wallet/{address}/ai-analysis` (Premium, X-API-Key) serves the saved report,
 * or queues its generation and answers 404 with `{status: "pending", retry_after_seconds}` (the contract's 404 "no
 * saved AI analysis yet"); `POST .../ai-analysis/generate?force=` (local host only) returns a report younger than
 * AI_ANALYSIS_FRESH_HOURS unchanged unless force=true, and generates one now otherwise. The plugin also gives the
 * process its queue worker (`app.aiAnalysis`), started when the app is ready and stopped when it closes.
 */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyRequest } from "fastify";
import { AnalysisQueue } from "../../../ai/analysis-queue.js";
import type { SavedAnalysis } from "../../../ai/analysis-store.js";
import { analysedWallet } from "../../../ai/inputs.js";
import { GenerationError } from "../../../ai/report-writer.js";
import { access } from "../../access.js";
import type { AppContext } from "../../context.js";
import { HttpError, notFound } from "../../errors.js";
import { clientOf } from "../../gate.js";
import { WalletParams, refuseContractAddresses } from "../../params.js";
import { AnalysisBody, GenerateQuery, NotYetBody } from "./ai-analysis-schemas.js";
import { NoQuery } from "../wallet-insights/wallet-insight-schemas.js";

declare module "fastify" {
  interface FastifyInstance {
    /** This process's AI analyses: the queue worker and what the routes ask of it. */
    aiAnalysis: AnalysisQueue;
  }
}

const TAGS = ["wallet AI analysis"];

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
        querystring: NoQuery,
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
        querystring: GenerateQuery,
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
