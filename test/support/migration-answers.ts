/**
 * What the migration tests share: the settings a small world is answered with, and every answer to a list of URLs
 * (status, content type and body) taken by a fresh app over the store.
 */
import type { FastifyInstance } from "fastify";
import { expect } from "vitest";
import { createKey } from "../../src/accounts/keys.js";
import { buildApp } from "../../src/api/app.js";
import { type Config, loadConfig } from "../../src/config/index.js";
import { type Clock, ManualClock } from "../../src/platform/clock.js";
import { createLogger } from "../../src/platform/logger.js";
import type { World } from "../../src/sim/world/index.js";
import { smallWorld } from "../../src/sim/world/testing/worlds.js";
import type { Store } from "../../src/store/database.js";
import { memoryPlatform } from "./backends.js";

/** Silent, Smart Money from three resolved markets (a small world has few), and no throttling of the test's asks. */
export const migrationWorldConfig = (): Config =>
  loadConfig({
    LOG_LEVEL: "silent",
    SMART_MIN_RESOLVED_MARKETS: "3",
    RATE_FREE_PER_MINUTE: "1000000",
    RATE_PREMIUM_PER_MINUTE: "1000000",
  });

/** The small world the migration tests store, a clock at its end, and `migrationWorldConfig`. */
export function migrationWorld(): { world: World; clock: ManualClock; config: Config } {
  const world = smallWorld(7);
  const clock = new ManualClock();
  clock.set(world.end * 1000);
  return { world, clock, config: migrationWorldConfig() };
}

/** `work` over an app of the store with a platform of its own: nothing one app kept there is served by the next. */
export async function withFreshApp<T>(
  store: Store,
  config: Config,
  clock: Clock,
  work: (app: FastifyInstance) => Promise<T>,
): Promise<T> {
  const { platform, dispose } = await memoryPlatform.open(clock);
  const app = await buildApp(
    { config, store, platform, expectedSources: [], startedAt: clock.now() },
    createLogger("silent"),
  );
  await app.ready();
  try {
    return await work(app);
  } finally {
    await app.close();
    await dispose();
  }
}

/**
 * A function that takes every URL's answer (`status content-type body`) with a Premium key: a first round records
 * what the views count (lookups, sync requests); the second is the one returned.
 */
export async function answerTaker(
  store: Store,
  config: Config,
  clock: Clock,
  now: number,
): Promise<(urls: readonly string[]) => Promise<Map<string, string>>> {
  const { key } = await createKey(store.db, { account: "migration", plan: "premium", now });
  const ask = (urls: readonly string[]) =>
    withFreshApp(store, config, clock, async (app) => {
      const out = new Map<string, string>();
      for (const url of urls) {
        const r = await app.inject({ url, headers: { "x-api-key": key } });
        out.set(url, `${r.statusCode} ${r.headers["content-type"]} ${r.body}`);
      }
      return out;
    });
  return async (urls) => {
    await ask(urls);
    return ask(urls);
  };
}

/** Checks that every URL is answered after as before, byte for byte; returns the answers that were a 200. */
export function expectSameAnswers(before: Map<string, string>, after: Map<string, string>): string[] {
  const changed = [...before].filter(([url, answer]) => after.get(url) !== answer).map(([url]) => url);
  expect(changed).toEqual([]);
  expect(after.size).toBe(before.size);
  return [...before.values()].filter((a) => a.startsWith("200 "));
}
