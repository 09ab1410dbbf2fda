/**
 * A simulated world's history replayed into a store as the live service would have lived it, for the scorecard's
 * checks (test/scorecard-replay.test.ts, bench/informed.bench.ts): the history before `from` stored and derived at
 * once, then the rest in steps of `stepSeconds`, each committed batch by batch through the Deriver, the markets as
 * they stood at the step's end, and a full refresh at each step's end on a clock set there. The signal recorder runs
 * in every refresh, so each signal is emitted at the step when the stored history first showed it, before its market
 * resolved.
 */
import type { Config } from "../../config/index.js";
import { ManualClock } from "../../platform/clock.js";
import { createLogger } from "../../platform/logger.js";
import type { World } from "../../sim/world/index.js";
import type { Store } from "../../store/database.js";
import { Deriver } from "../deriver.js";
import { loadWorldFunding } from "./stored-funding.js";
import { loadWorld, recordWorldWallets } from "./stored-world.js";
import { gradeFromTruth, type TruthGrade } from "../../sim/world/testing/truth-grades.js";

export interface ReplayOptions {
  /** Where the stepped replay starts (unix seconds): everything before is stored at once. */
  readonly from: number;
  readonly stepSeconds: number;
  /** Called after each step's refresh. */
  readonly onStep?: (stepEnd: number) => void;
}

export async function replayWithRefreshes(
  store: Store,
  world: World,
  config: Config,
  options: ReplayOptions,
): Promise<{ refreshes: number }> {
  const clock = new ManualClock(options.from * 1000);
  await loadWorld(store, world, { range: { to: options.from }, updatedAt: options.from });
  await recordWorldWallets(store, world, options.from);
  // Transfers of every time, the later ones too: a wallet's funding is read when it is first seen, and the insiders'
  // collateral arrives before their bets; the clusters are written again by each refresh.
  await loadWorldFunding(store, world, config.funding);
  const deriver = new Deriver({ store, config, clock, logger: createLogger("silent") });
  await deriver.start();
  let refreshes = 0;
  try {
    await deriver.refresh({ full: true });
    refreshes++;
    for (let at = options.from; at < world.end; at += options.stepSeconds) {
      const end = Math.min(world.end, at + options.stepSeconds);
      clock.set(end * 1000);
      await loadWorld(store, world, {
        range: { from: at, to: end },
        updatedAt: end,
        onBatch: (batch) => deriver.onCommitted(batch),
      });
      await deriver.idle();
      await deriver.refresh({ full: true });
      refreshes++;
      options.onStep?.(end);
    }
  } finally {
    await deriver.stop();
  }
  return { refreshes };
}

/** The store's recorded signals graded from the world's ground truth alone (src/sim/world/testing/truth-grades.ts). */
export async function gradeRecordedFromTruth(store: Store, world: World): Promise<TruthGrade[]> {
  const recorded = await store.db
    .selectFrom("signal_ledger")
    .select(["kind", "emitted_at", "condition_id", "outcome_index"])
    .execute();
  return gradeFromTruth(
    world,
    recorded.map((r) => ({
      kind: r.kind,
      emittedAt: Number(r.emitted_at),
      conditionId: r.condition_id,
      outcomeIndex: Number(r.outcome_index),
    })),
  );
}
