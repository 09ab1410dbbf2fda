/** `pelagic rebuild`: recomputes every derived table from the stored fills and activity, then prints what it did. */
import type { Config } from "../config/index.js";
import { rebuild } from "../derive/index.js";
import { systemClock, type Clock } from "../platform/clock.js";
import { withMigratedStore } from "../runtime/store.js";
import { settleAfterBulkWrite } from "../store/settle.js";
import type { CommandSpec } from "./spec.js";

export async function runRebuildCommand(
  config: Config,
  clock: Clock = systemClock,
  print: (line: string) => void = console.log,
): Promise<void> {
  await withMigratedStore(config, async (store) => {
    const result = await rebuild(store, config, clock);
    await settleAfterBulkWrite(store);
    const seconds = (ms: number) => (ms / 1000).toFixed(1);
    print(
      `rebuilt as of ${result.fills > 0 ? new Date(result.asOf * 1000).toISOString() : "(no stored fills)"}: ${result.fills} fills, ${result.wallets} wallets, ${result.positions} positions, ` +
        `${result.markets} markets (replay ${seconds(result.replayMs)} s, statistics ${seconds(result.statsMs)} s, write ${seconds(result.writeMs)} s)`,
    );
  });
}

export const rebuildCommand: CommandSpec = {
  name: "rebuild",
  summary: "recompute positions, statistics, snapshots and P&L points from the stored fills",
  description:
    "Replays the stored fills and activity through the ledger and replaces positions, wallet_stats, market_stats, " +
    "today's position snapshot and the hourly and daily P&L points, the wallet fee sums and the markets' daily price sums in one transaction. Run it with ingest stopped; the ingest " +
    "process does the same when it starts.",
  flags: {},
  examples: ["pelagic rebuild", "pelagic rebuild --database-url postgres://localhost/pelagic"],
  run: (config) => runRebuildCommand(config),
};
