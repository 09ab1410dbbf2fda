/** `pelagic migrate`: the store's schema brought up to date. */
import { withMigratedStore } from "../runtime/store.js";
import type { CommandSpec } from "./spec.js";

export const migrateCommand: CommandSpec = {
  name: "migrate",
  summary: "bring the store's schema up to date and exit",
  description:
    "Applies the migrations the configured store lacks and prints their names. serve and ingest do the same when they start.",
  flags: {},
  examples: ["pelagic migrate", "pelagic migrate --database-url postgres://localhost/pelagic"],
  async run(config) {
    await withMigratedStore(config, async (_store, applied) => {
      console.log(applied.length ? `applied: ${applied.join(", ")}` : "store is up to date");
    });
  },
};
