/**
 * `pelagic demo` as a user runs it, on a small world (its thresholds lowered to its size, as the demo does, and Smart
 * Money's minimum of resolved markets to 3), trading live: one child process serving the simulated venue's history and
 * live trades. Waits until health says ready; keys of the plans a test needs are made in its store.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createKey } from "../../src/accounts/keys.js";
import type { Plan } from "../../src/store/schema.js";
import { openStore } from "../../src/store/database.js";
import { spawnPelagic, type Running } from "./cli.js";

export interface DemoService {
  readonly url: string;
  /** The Premium key the demo prints for its run. */
  readonly premiumKey: string;
  /** A key of another plan or rate limit, made in the demo's store. */
  key(account: string, plan: Plan, rateLimitPerMinute?: number): Promise<string>;
  close(): Promise<void>;
}

export async function startDemoService(): Promise<DemoService> {
  const dataDir = mkdtempSync(join(tmpdir(), "pelagic-demo-"));
  const demo: Running = spawnPelagic(
    ["demo", "--markets", "40", "--wallets", "300", "--fills", "8000", "--days", "30", "--live-rate", "4"],
    {
      DATA_DIR: dataDir,
      PORT: "0",
      LOG_LEVEL: "info",
      SMART_MIN_RESOLVED_MARKETS: "3",
      RATE_FREE_PER_MINUTE: "100000",
    },
  );
  const close = async () => {
    demo.child.kill("SIGTERM");
    await demo.exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const serving = await demo.waitFor((line) => line.msg === "pelagic serving", 120_000);
    const url = String(serving.url);
    const storePath = String(serving.store);
    for (const deadline = Date.now() + 120_000; ; ) {
      const health = (await fetch(`${url}/api/v1/health`).then((r) => r.json())) as { ready?: boolean };
      if (health.ready) break;
      if (Date.now() > deadline) throw new Error(`the demo was not ready within 120 s: ${demo.stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const printed = demo.lines.find((line) => typeof line === "string" && line.includes("a Premium key for this run"));
    const premiumKey = /pelagic_[A-Za-z0-9]+/.exec(String(printed))?.[0];
    if (!premiumKey) throw new Error("the demo printed no Premium key");
    return {
      url,
      premiumKey,
      async key(account, plan, rateLimitPerMinute) {
        const store = await openStore({ kind: "sqlite", sqlitePath: storePath });
        try {
          const now = Math.floor(Date.now() / 1000);
          return (await createKey(store.db, { account, plan, rateLimitPerMinute, now })).key;
        } finally {
          await store.close();
        }
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
