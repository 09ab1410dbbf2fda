/**
 * `pelagic scorecard`: checks the signal ledger's hash chain link by link (src/store/signal-ledger.ts) and prints
 * its head and how each kind of signal fared (src/analytics/informed/scorecard-reads.ts); exits 1 when a record was
 * edited, dropped or reordered.
 */
import { ScorecardReads } from "../analytics/informed/scorecard-reads.js";
import type { Config } from "../config/index.js";
import { systemClock, type Clock } from "../platform/clock.js";
import { withMigratedStore } from "../runtime/store.js";
import type { Store } from "../store/database.js";
import { SignalChainBroken, verifySignalChain } from "../store/signal-ledger.js";
import type { CommandSpec } from "./spec.js";

const pct = (x: number | null) => (x === null ? "–" : `${(100 * x).toFixed(1)}%`);

/** Checks the chain (SignalChainBroken when it does not hold), then prints its head and each kind's figures. */
export async function checkScorecard(store: Store, clock: Clock, print: (line: string) => void): Promise<void> {
  {
    const check = await verifySignalChain(store.db);
    if (check.broken) throw new SignalChainBroken(check);
    print(
      check.head
        ? `the signal ledger holds: ${check.records} records, head ${check.head.seq} ${check.head.hash}`
        : "the signal ledger is empty",
    );
    const { rows } = await new ScorecardReads(store, () => clock.nowMs()).scorecard();
    for (const r of rows.filter((row) => row.month === "all"))
      print(
        `${r.kind}: ${r.signals} signals, ${r.graded} graded, hit rate ${pct(r.hit_rate)} (95% ${pct(r.hit_rate_low)}-${pct(r.hit_rate_high)}), mean follow return ${pct(r.mean_return)} over ${r.followed}`,
      );
  }
}

export async function runScorecardCommand(
  config: Config,
  clock: Clock = systemClock,
  print: (line: string) => void = console.log,
): Promise<void> {
  await withMigratedStore(config, (store) => checkScorecard(store, clock, print));
}

export const scorecardCommand: CommandSpec = {
  name: "scorecard",
  summary: "check the signal ledger's hash chain and print how each kind of signal fared",
  description:
    "Reads every recorded signal in order and checks that each links to the one before and hashes to its own hash; " +
    "exits 1 naming the first record that does not fit. Then prints, per kind, the signals, those graded, the hit " +
    "rate and the mean return of following them (GET /api/v2/scorecard has them per month).",
  flags: {},
  examples: ["pelagic scorecard", "pelagic scorecard --database-url postgres://localhost/pelagic"],
  run: (config) => runScorecardCommand(config),
};
