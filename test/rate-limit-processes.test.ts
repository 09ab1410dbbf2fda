import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TEST_REDIS_URL, deleteRedisPrefix, uniqueName } from "./support/backends.js";
import { runPelagic, spawnPelagic, type Running } from "./support/cli.js";

describe.runIf(TEST_REDIS_URL)("one Premium budget shared by two API processes through Redis", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "pelagic-rate-"));
  const prefix = uniqueName("pelagic_rate") + ":";
  const env = {
    DATA_DIR: dataDir,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: prefix,
    DATABASE_URL: "",
    LOG_LEVEL: "warn",
  };
  const processes: Running[] = [];

  afterAll(async () => {
    for (const p of processes) p.child.kill("SIGTERM");
    await Promise.all(processes.map((p) => p.exited));
    await deleteRedisPrefix(TEST_REDIS_URL as string, prefix);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("lets exactly 600 of 700 requests through across both, then 429 with Retry-After: 60", async () => {
    const created = runPelagic(["keys", "create", "--account", "twin", "--plan", "premium"], env);
    expect(created.status).toBe(0);
    const key = /key:\s+(pelagic_\S+)/.exec(created.stdout)?.[1] as string;
    expect(key).toBeDefined();

    for (let i = 0; i < 2; i++) {
      processes.push(spawnPelagic(["serve", "--role", "api", "--port", "0", "--log-level", "info"], env));
    }
    const urls = await Promise.all(
      processes.map((p) => p.waitFor((l) => l.msg === "pelagic serving").then((l) => l.url as string)),
    );
    expect(new Set(urls).size).toBe(2);

    const results: Array<{ status: number; remaining: number; retryAfter: string | null }> = [];
    let next = 0;
    const worker = async () => {
      while (next < 700) {
        const i = next++;
        const res = await fetch(`${urls[i % 2]}/api/v2/key/verify`, { headers: { "X-API-Key": key } });
        await res.arrayBuffer();
        results.push({
          status: res.status,
          remaining: Number(res.headers.get("x-ratelimit-remaining")),
          retryAfter: res.headers.get("retry-after"),
        });
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));

    const ok = results.filter((r) => r.status === 200);
    const limited = results.filter((r) => r.status === 429);
    expect(ok).toHaveLength(600);
    expect(limited).toHaveLength(100);
    expect(limited.every((r) => r.retryAfter === "60" && r.remaining === 0)).toBe(true);
    // Every successful call saw a distinct place in the shared budget: 599 down to 0.
    expect(ok.map((r) => r.remaining).sort((a, b) => b - a)).toEqual(Array.from({ length: 600 }, (_, i) => 599 - i));
  }, 180_000);
});
