/** `pelagic rebuild`: recomputes every derived table from the stored fills and activity, then prints what it did. */
import type { Config } from "../config/index.js";
import { systemClock, type Clock } from "../platform/clock.js";
import { withMigratedStore } from "../runtime/index.js";
import { rebuild } from "./rebuild.js";

export async function runRebuildCommand(config: Config, clock: Clock = systemClock, print: (line: string) => void = console.log): Promise<void> {
  await withMigratedStore(config, async (store) => {
    const result = await rebuild(store, config, clock);
    const seconds = (ms: number) => (ms / 1000).toFixed(1);
    print(
      `rebuilt as of ${result.fills > 0 ? new Date(result.asOf * 1000).toISOString() : "(no stored fills)"}: ${result.fills} fills, ${result.wallets} wallets, ${result.positions} positions, ` +
        `${result.markets} markets (replay ${seconds(result.replayMs)} s, statistics ${seconds(result.statsMs)} s, write ${seconds(result.writeMs)} s)`,
    );
  });
}
