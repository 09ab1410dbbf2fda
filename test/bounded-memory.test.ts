/**
 * A quarter of a million client-chosen keys through each structure a request can grow: presence sets, the in-process cache
 * backend, the serialized-answer caches (TtlBodies, the leaderboard's answers). Each stays within its bound
 * by its own accounting at every step, and the process holds no more than the bound (and a fixed allowance)
 * after garbage collection. The entry caps are set far above what the byte budgets admit, so that only the byte
 * budgets (and expiry) can keep memory down: the keys outnumber both the entry caps and, thirty times over, the
 * entries a budget holds.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BoardTable } from "../src/analytics/boards/board-table.js";
import { GenerationBodies } from "../src/kept/generation-bodies.js";
import { mebibytes } from "../src/platform/bounded-map.js";
import type { BoardQuery } from "../src/analytics/boards/leaderboard.js";
import { TtlBodies } from "../src/kept/ttl-bodies.js";
import { loadConfig } from "../src/config/index.js";
import { MemoryCacheBackend } from "../src/platform/cache.js";
import { BackgroundWork } from "../src/platform/background-work.js";
import { ManualClock } from "../src/platform/clock.js";
import { MemoryPresence } from "../src/platform/presence.js";
import type { Store } from "../src/store/database.js";
import { sqliteBackend } from "./support/backends.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const KEYS = 250_000;
const CHECK_EVERY = 12_500;
/** Entry caps far above what the byte budgets hold. */
const ENTRY_CAP = 200_000;
const MIB = 1024 * 1024;
const BUDGET_MB = 2;
const BUDGET = BUDGET_MB * MIB;
/** What a structure may hold beyond its budget in the measured heap: V8's own churn, code, the test's locals. */
const ALLOWANCE = 8 * MIB;
/** Values of a few hundred bytes: the structures of the old code held ENTRY_CAP of them, hundreds of MiB. */
const PAD = "x".repeat(200);

/** Heap and memory blocks in use after full collections. */
function heldBytes(): number {
  gc();
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

describe("a quarter of a million distinct keys", () => {
  it("presence: sets of wallets nobody pings any more are swept, whether or not anyone counts them", async () => {
    const clock = new ManualClock(1_000_000);
    const presence = new MemoryPresence(clock);
    const ttlMs = 1_000;
    const before = heldBytes();
    let largest = 0;
    // One touch per millisecond: about a thousand sets are live at any time.
    for (let i = 0; i < KEYS; i++) {
      await presence.touch(`wallet:0x${i.toString(16).padStart(40, "0")}`, `s:${i}`, ttlMs);
      clock.advance(1);
      if (i % CHECK_EVERY === 0) largest = Math.max(largest, presence.footprint.sets);
    }
    const held = heldBytes() - before;
    expect(largest).toBeLessThanOrEqual(3 * ttlMs);
    expect(presence.footprint.members).toBeLessThanOrEqual(3 * ttlMs);
    expect(held).toBeLessThan(ALLOWANCE);
    // Once every member expired, the idle sweep empties it without a touch or a count.
    clock.advance(ttlMs);
    presence.sweep(10_000);
    expect(presence.footprint).toEqual({ sets: 0, members: 0 });
    await presence.close();
  });

  it("the in-process cache backend keeps its byte budget, however many entries its cap allows", async () => {
    const clock = new ManualClock(1_000_000);
    const backend = new MemoryCacheBackend(clock, { maxEntries: ENTRY_CAP, maxBytes: BUDGET });
    const before = heldBytes();
    for (let i = 0; i < KEYS; i++) {
      await backend.set(
        `wallet-overview:${i}`,
        { value: { wallet: i, pad: `${i}${PAD}` }, freshUntil: clock.nowMs() + 60_000 },
        86_460_000,
      );
      if (i % CHECK_EVERY === 0) expect(backend.footprint.bytes).toBeLessThanOrEqual(BUDGET);
    }
    // Measured while the structure is still in use (used below), so that it is not collected.
    const held = heldBytes() - before;
    expect(held).toBeLessThan(BUDGET + ALLOWANCE);
    expect(backend.footprint.bytes).toBeLessThanOrEqual(BUDGET);
    expect(backend.footprint.entries).toBeGreaterThan(1_000);
    expect(await backend.get(`wallet-overview:${KEYS - 1}`)).toMatchObject({ value: { wallet: KEYS - 1 } });
    await backend.close();
  });

  it("a TtlBodies keeps its byte budget, however many entries its cap allows", async () => {
    const clock = new ManualClock(1_000_000 * 1_000);
    const cache = new TtlBodies(clock, 60, { maxEntries: ENTRY_CAP, maxBytes: BUDGET }, 1_024);
    const before = heldBytes();
    for (let i = 0; i < KEYS; i++) {
      await cache.get(`search:${i}`, async () => `{"q":${i},"pad":"${PAD}"}`);
      if (i % CHECK_EVERY === 0) expect(cache.footprint.bytes).toBeLessThanOrEqual(BUDGET);
    }
    const held = heldBytes() - before;
    expect(held).toBeLessThan(BUDGET + ALLOWANCE);
    expect(cache.footprint.entries).toBeGreaterThan(1_000);
    let computed = false;
    await cache.get(`search:${KEYS - 1}`, async () => String((computed = true)));
    expect(computed).toBe(false);
  });

  // The answers are kept in the process whatever the store: its table is read once, from SQLite here.
  describe("the leaderboard's answers", () => {
    let store: Store;
    let dispose: () => Promise<void>;
    beforeAll(async () => ({ store, dispose } = await sqliteBackend.open()));
    afterAll(() => dispose());

    it("keep their byte budget, however many distinct queries the page cap allows", async () => {
      const config = loadConfig({
        LEADERBOARD_CACHED_PAGES: String(ENTRY_CAP),
        LEADERBOARD_CACHED_MB: String(BUDGET_MB),
      });
      const table = new BoardTable(store, config, new ManualClock(1_000_000 * 1_000), new BackgroundWork());
      const answers = new GenerationBodies(
        { maxEntries: config.boards.leaderboardCachedPages, maxBytes: mebibytes(config.boards.leaderboardCachedMb) },
        config.server.gzipMinBytes,
      );
      const query: BoardQuery = {
        sort: "pnl",
        category: "",
        filter: "all",
        limit: 50,
        offset: 0,
        min_markets: 0,
        min_wr: 0,
        min_pnl: 0,
        min_profit_factor: 0,
        max_avg_entry: 0,
        max_sports_pct: 0,
        exclude_wallets: "",
        skill: 0,
      };
      const board = await table.current();
      const before = heldBytes();
      for (let i = 0; i < KEYS; i++) {
        const q = { ...query, offset: i };
        answers.answer(board.generation, JSON.stringify(q), () => `${JSON.stringify(board.page(q))}${PAD}`);
        if (i % CHECK_EVERY === 0) expect(answers.footprint.bytes).toBeLessThanOrEqual(BUDGET);
      }
      const held = heldBytes() - before;
      expect(held).toBeLessThan(BUDGET + ALLOWANCE);
      expect(answers.footprint.entries).toBeGreaterThan(1_000);
      expect(answers.footprint.bytes).toBeLessThanOrEqual(BUDGET);
    });
  });
});
