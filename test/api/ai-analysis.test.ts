/**
 * The AI analysis state machine over a simulated world, its model a loopback chat-completions server, on every
 * store backend: none → the first GET queues and answers 404 pending → the generated report, saved; the generate
 * call reuses a report younger than 24 h unless force=true and regenerates otherwise; it answers the local host
 * only; the GET is Premium with X-API-Key.
 */
import { servedTree } from "../support/served-numbers.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../../src/accounts/keys.js";
import { aiDb } from "../../src/ai/tables.js";
import { CONTRACTS } from "../../src/venue/contracts.js";
import { storeBackends } from "../support/backends.js";
import { DAY_MS, openAiWorld, type AiWorld } from "../support/api/ai-analysis.js";

describe.each(storeBackends)("AI analysis states on $kind", (backend) => {
  let t: AiWorld;
  beforeAll(async () => {
    t = await openAiWorld({ storeBackend: backend });
  }, 120_000);
  afterAll(async () => t?.close());

  it("queues on the first GET (404 pending, Retry-After), then serves the report the model wrote, saved with its inputs", async () => {
    const wallet = t.wallets[0]!;
    const first = await t.get(wallet);
    expect(first.status).toBe(404);
    // Nothing ahead and no generation measured yet: one generation of AI_ANALYSIS_EXPECTED_SECONDS (5).
    expect(first.body).toMatchObject({ status: "pending", retry_after_seconds: 5, attempts: 0, last_error: null });
    expect(first.body.detail).toContain("Retry after 5 seconds");
    expect(first.headers["retry-after"]).toBe("5");

    await t.w.app.aiAnalysis.settle();
    const ready = await t.get(wallet);
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({
      address: wallet,
      status: "ready",
      generator: "model",
      model: "test-model",
      prompt_version: "wallet-analysis.v1",
      stale: false,
    });
    expect(ready.body.generated_at).toBe(t.w.clock.now());
    expect(ready.body.expires_at).toBe(t.w.clock.now() + 86_400);
    expect(ready.body.sections.map((s: { key: string }) => s.key)).toEqual([
      "summary",
      "style",
      "edge_and_skill",
      "verdicts",
      "strengths",
      "risks",
      "recent_changes",
    ]);
    expect(ready.body.report).toContain("Written by the test model.");
    // The model was asked once, with the wallet's statistics, and the record keeps exactly what it was given.
    const asked = t.chat.requests.filter((r) => r.facts.wallet?.address === wallet);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.body.model).toBe("test-model");
    expect(asked[0]!.headers.authorization).toBeUndefined();
    // The inputs are served as any answer is, rounded to what each figure means.
    expect(ready.body.inputs).toEqual(servedTree(asked[0]!.facts));
    const overview = (await t.w.app.inject(`/api/v2/wallet/${wallet}`)).json();
    expect(ready.body.inputs.stats).toEqual(overview.stats);

    const again = await t.get(wallet);
    expect(again.body.generated_at).toBe(ready.body.generated_at);
    expect(t.chat.requests.filter((r) => r.facts.wallet?.address === wallet)).toHaveLength(1);

    // Once a generation is measured (the test model answers in milliseconds), the estimate is that: a second.
    const next = await t.get(t.wallets[1]!);
    expect(next.status).toBe(404);
    expect(next.body.retry_after_seconds).toBe(1);
    await t.w.app.aiAnalysis.settle();
  });

  it("reuses a report younger than 24 h on generate, regenerates with force=true and once 24 h old", async () => {
    const wallet = t.wallets[1]!;
    const asked = () => t.chat.requests.filter((r) => r.facts.wallet?.address === wallet).length;
    const created = await t.generate(wallet);
    expect(created.status).toBe(200);
    expect(created.body.generator).toBe("model");
    expect(asked()).toBe(1);

    t.w.clock.advance(DAY_MS - 1_000);
    const reused = await t.generate(wallet, "?force=false");
    expect(reused.body).toEqual(created.body);
    expect(asked()).toBe(1);

    const forced = await t.generate(wallet, "?force=true");
    expect(forced.status).toBe(200);
    expect(forced.body.generated_at).toBe(t.w.clock.now());
    expect(asked()).toBe(2);

    t.w.clock.advance(DAY_MS);
    const aged = await t.generate(wallet);
    expect(aged.body.generated_at).toBe(t.w.clock.now());
    expect(asked()).toBe(3);
    expect((await t.get(wallet)).body.generated_at).toBe(aged.body.generated_at);
  });

  it("serves a report older than 24 h as stale and queues its regeneration", async () => {
    const wallet = t.wallets[2]!;
    const made = await t.generate(wallet);
    t.w.clock.advance(DAY_MS + 1_000);
    const stale = await t.get(wallet);
    expect(stale.status).toBe(200);
    expect(stale.body).toMatchObject({ stale: true, generated_at: made.body.generated_at });
    await t.w.app.aiAnalysis.settle();
    const fresh = await t.get(wallet);
    expect(fresh.body).toMatchObject({ stale: false, generated_at: t.w.clock.now() });
  });

  it("answers generate to the local host only: 404 to another peer and to a forwarded request", async () => {
    const wallet = t.wallets[3]!;
    const external = await t.generate(wallet, "", { remoteAddress: "198.51.100.7" });
    expect(external).toEqual({ status: 404, body: { detail: "Not Found" } });
    const forwarded = await t.generate(wallet, "?force=true", { headers: { "x-forwarded-for": "198.51.100.7" } });
    expect(forwarded).toEqual({ status: 404, body: { detail: "Not Found" } });
    const viaProxy = await t.generate(wallet, "", { headers: { forwarded: "for=198.51.100.7" } });
    expect(viaProxy.status).toBe(404);
    expect(
      await aiDb(t.w.store.db).selectFrom("ai_analyses").select("wallet").where("wallet", "=", wallet).execute(),
    ).toEqual([]);
    expect((await t.generate(wallet, "", { remoteAddress: "::1" })).status).toBe(200);
  });

  it("keeps the GET Premium with X-API-Key, refuses unknown wallets and contracts, and validates force", async () => {
    const wallet = t.wallets[4]!;
    expect((await t.get(wallet, {})).status).toBe(401);
    expect((await t.get(wallet, { authorization: `Bearer ${t.key}` })).status).toBe(401);
    const free = (await createKey(t.w.store.db, { account: "ai-free", plan: "free", now: t.w.now })).key;
    expect((await t.get(wallet, { "x-api-key": free })).status).toBe(403);
    const unknown = await t.get("0x00000000000000000000000000000000000000aa");
    expect(unknown.status).toBe(404);
    expect(unknown.body.status).toBeUndefined();
    expect((await t.get(CONTRACTS.ctfExchangeV1.toLowerCase())).status).toBe(400);
    expect((await t.get("0x12")).status).toBe(422);
    const bad = await t.generate(wallet, "?force=maybe");
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body.detail)).toContain("force");
    expect((await t.generate(wallet, "?forse=1")).status).toBe(422);
  });

  it("limits new analyses per client per minute and the queue's length; reading saved and pending ones stays free", async () => {
    const limited = await openAiWorld({
      storeBackend: backend,
      env: { RATE_AI_ANALYSES_PER_MINUTE: "3", AI_ANALYSIS_MAX_QUEUED: "2" },
    });
    // The model never answers in time here, so what is queued stays pending whatever the timing.
    limited.chat.respond = () => ({ body: "", delayMs: 60_000 });
    try {
      const [a, b, c, d] = limited.wallets;
      expect((await limited.get(a!)).status).toBe(404);
      expect((await limited.get(b!)).status).toBe(404);
      expect((await limited.get(a!)).body.status).toBe("pending");
      const full = await limited.get(c!);
      expect(full.status).toBe(503);
      expect(full.body.detail).toContain("queue is full");
      const refused = await limited.get(d!);
      expect(refused.status).toBe(429);
      expect(refused.headers["retry-after"]).toBe("60");
      expect(refused.body.detail).toContain("3 per minute");
    } finally {
      await limited.close();
    }
  }, 120_000);
});
