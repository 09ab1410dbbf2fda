/**
 * The scorecard against the ground truth (issue 52), on every store: a simulated world's last 30 days replayed as
 * the service lives them (src/derive/testing/signal-replay.ts: batches through the Deriver, a refresh every 6 hours
 * recording the signals of the moment), then each kind's hit rate and mean follow return on /api/v2/scorecard equal
 * the same grades computed from the simulation's hidden outcomes and its own fills (src/sim/world/testing/truth-grades.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gradeRecordedFromTruth, replayWithRefreshes } from "../src/derive/testing/signal-replay.js";
import type { TruthGrade } from "../src/sim/world/testing/truth-grades.js";
import { smallWorld } from "../src/sim/world/testing/worlds.js";
import { storeBackends } from "./support/backends.js";
import { openTestApp, type TestApp } from "./support/app.js";

const DAY = 86_400;
const ENV = { SMART_MIN_RESOLVED_MARKETS: "3", RATE_FREE_PER_MINUTE: "100000", DERIVE_REFRESH_SECONDS: "86400" };

interface Row {
  kind: string;
  month: string;
  signals: number;
  graded: number;
  hits: number;
  hit_rate: number | null;
  followed: number;
  mean_return: number | null;
}

describe.each(storeBackends)("the scorecard replayed on $kind", (backend) => {
  const world = smallWorld(7);
  let t: TestApp;
  let truth: TruthGrade[];
  let rows: Row[];

  beforeAll(async () => {
    t = await openTestApp({ storeBackend: backend, env: ENV });
    await replayWithRefreshes(t.store, world, t.config, { from: world.end - 30 * DAY, stepSeconds: DAY / 4 });
    t.clock.set(world.end * 1000);
    truth = await gradeRecordedFromTruth(t.store, world);
    rows = (await t.app.inject("/api/v2/scorecard")).json().rows;
  }, 240_000);
  afterAll(async () => t?.close());

  it("records signals before their markets resolve, and some of them resolve within the replay", () => {
    console.log(
      truth
        .map((g) => `${g.kind}: ${g.signals} signals, ${g.graded} graded, ${g.hits} hits, ${g.followed} followed`)
        .join("\n"),
    );
    expect(truth.reduce((n, g) => n + g.graded, 0)).toBeGreaterThan(10);
  });

  it("grades each kind as the ground truth does: hit rate and mean follow return", () => {
    const overall = rows.filter((r) => r.month === "all");
    expect(overall.map((r) => r.kind)).toEqual(truth.map((g) => g.kind));
    for (const g of truth) {
      const row = overall.find((r) => r.kind === g.kind)!;
      expect([row.signals, row.graded, row.hits, row.followed], g.kind).toEqual([
        g.signals,
        g.graded,
        g.hits,
        g.followed,
      ]);
      if (g.graded > 0) expect(row.hit_rate).toBeCloseTo(g.hits / g.graded, 4);
      if (g.followed > 0) expect(row.mean_return).toBeCloseTo(g.returnSum / g.followed, 4);
    }
  });
});
