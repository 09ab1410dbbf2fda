/**
 * The whale book's reload (src/analytics/whales/whale-book.ts): one that finds nothing new keeps the copy's version, so the
 * answers kept under it stand; one after later fills reads only the whales whose statistics row moved and must hold
 * what a load from scratch holds, under a new version, and the API's answers are then the new copy's, not the kept
 * ones. A simulated world derived in two steps: the Deriver's warm start, then the later fills batch by batch.
 */
import { POSITION_STATUS_CODE } from "../../src/store/position-status.js";
import { updatePositionsSql } from "../../src/store/testing/positions.js";
import { describe, expect, it } from "vitest";
import { WhaleBook, type WhaleBookView } from "../../src/analytics/whales/whale-book.js";
import { BackgroundWork } from "../../src/platform/background-work.js";
import { ManualClock } from "../../src/platform/clock.js";
import { placeholders } from "../../src/store/raw-sql.js";
import type { TestApp } from "../support/app.js";
import { useTwoStepWorld } from "../support/api/two-step-world.js";
import { sqlRows } from "../support/api/wallet-insights.js";

/** What a copy holds, comparable between two loads. */
const content = (v: WhaleBookView) => ({
  whales: [...v.whales],
  whaleAddresses: v.whaleAddresses,
  boughtByPair: [...v.boughtByPair].sort(([a], [b]) => (a < b ? -1 : 1)),
  wonGroups: v.wonGroups,
  activeGroups: v.activeGroups,
  markets: [...v.markets],
});

/** The three whale answers at `limit` 50 for each wallet. */
const askWhaleAnswers = (app: TestApp, wallets: readonly string[]) =>
  Promise.all(
    wallets.flatMap((w) =>
      ["whale-matches", "missed-opportunities", "active-whale-markets"].map(
        async (path) => (await app.app.inject(`/api/v2/wallet/${w}/${path}?limit=50`)).json() as unknown,
      ),
    ),
  );

describe("whale book reloads", () => {
  const twoStep = useTwoStepWorld();

  it("keeps the version when nothing changed, moves it (and the answers) when whales' positions did", async () => {
    const two = twoStep();
    const { store, clock, t } = two;
    const book = new WhaleBook(store, clock, 60, new BackgroundWork());
    const first = await book.current();
    expect(first.whales.size).toBeGreaterThan(5);

    // Past the refresh window: a reload (the caller waits for it) that reads the same rows.
    clock.advance(61_000);
    const same = await book.current();
    expect(same.asOf).toBe(clock.now());
    expect(same.version).toBe(first.version);
    expect(same.wonGroups).toBe(first.wonGroups);

    // A whale's statistics row written again with the same positions: read again, found equal, version kept.
    const whale = first.whaleAddresses[0]!;
    const q = sqlRows(() => ({ store }) as never);
    await q("update wallet_stats set computed_at = computed_at + 1 where wallet = ?", [whale]);
    clock.advance(61_000);
    const touched = await book.current();
    expect(touched.version).toBe(first.version);
    expect(content(touched)).toEqual(content(first));

    // A whale's positions rewritten in the same second with every figure of its statistics row as it was (a
    // redemption of a resolved winner): the positions digest written with them moves, and the reload reads them.
    const [holder] = await q<{ wallet: string }>(
      `select wallet from positions where status = 'open' and shares > 0 and wallet in ${placeholders(first.whaleAddresses.length)} limit 1`,
      [...first.whaleAddresses],
    );
    await q(
      updatePositionsSql(`shares = 0, status = ${POSITION_STATUS_CODE.closed}`, "wallet = ? and status = 'open'"),
      [holder!.wallet],
    );
    await q("update wallet_stats set positions_digest = positions_digest + 1 where wallet = ?", [holder!.wallet]);
    clock.advance(61_000);
    const redeemed = await book.current();
    expect(redeemed.version).not.toBe(first.version);
    expect(content(redeemed)).toEqual(content(await new WhaleBook(store, clock, 60, new BackgroundWork()).current()));

    // The API's answers for the busiest wallets, kept under that version.
    const busiest = (
      await q<{ wallet: string }>("select wallet from wallet_stats order by total_trades desc, wallet limit 8")
    ).map((r) => r.wallet);
    const ask = (app: TestApp) => askWhaleAnswers(app, busiest);
    const before = await ask(t);

    // The later fills and resolutions, through the Deriver.
    await two.deliverRest();
    clock.advance(61_000);
    const later = await book.current();
    expect(later.version).not.toBe(first.version);
    // The Deriver wrote the later fills' positions and statistics before `deliverRest` resolved (a backfill's
    // deferred write included), not seconds later in the middle of what follows: whales' positions moved.
    expect(later.generation).toBeGreaterThan(first.generation);
    expect(content(later).boughtByPair).not.toEqual(content(first).boughtByPair);
    // What a load from scratch holds.
    const fresh = await new WhaleBook(store, clock, 60, new BackgroundWork()).current();
    expect(content(later)).toEqual(content(fresh));

    // The API's copy reloads too: its answers are computed again from the new copy, as a fresh process answers.
    t.clock.set(clock.nowMs());
    const after = await ask(t);
    expect(after).not.toEqual(before);
    const other = await two.openApp();
    try {
      expect(after).toEqual(await ask(other));
    } finally {
      await other.close();
    }
  }, 240_000);
});

describe("whale book reloaded between the Deriver's batches", () => {
  const twoStep = useTwoStepWorld();

  it("holds, once the store is quiet, what a load from scratch holds, and the API answers as a fresh app", async () => {
    const two = twoStep();
    const { store, clock, t } = two;
    const q = sqlRows(() => ({ store }) as never);
    const busiest = (
      await q<{ wallet: string }>("select wallet from wallet_stats order by total_trades desc, wallet limit 8")
    ).map((r) => r.wallet);
    // The copies' own clocks, moved past the refresh window after each batch: every batch is followed by a reload.
    const bookClock = new ManualClock(clock.nowMs());
    const book = new WhaleBook(store, bookClock, 60, new BackgroundWork());
    const first = await book.current();
    let reloads = 0;
    await two.deliverRest({
      batchRows: 500,
      between: async () => {
        bookClock.advance(61_000);
        t.clock.advance(61_000);
        await book.current();
        await askWhaleAnswers(t, busiest.slice(0, 2));
        reloads++;
      },
    });
    expect(reloads).toBeGreaterThan(1);

    bookClock.advance(61_000);
    const quiet = await book.current();
    expect(quiet.generation).toBeGreaterThan(first.generation);
    expect(content(quiet)).toEqual(content(await new WhaleBook(store, clock, 60, new BackgroundWork()).current()));
    t.clock.advance(61_000);
    const answers = await askWhaleAnswers(t, busiest);
    const other = await two.openApp();
    try {
      expect(answers).toEqual(await askWhaleAnswers(other, busiest));
    } finally {
      await other.close();
    }
  }, 240_000);
});
