/** `pelagic migrate`: the store's schema brought up to date. */
import { withMigratedStore } from "../runtime/store.js";
import { compactStore } from "../store/compact.js";
import type { CommandSpec } from "./spec.js";

export const migrateCommand: CommandSpec = {
  name: "migrate",
  summary: "bring the store's schema up to date and exit",
  description:
    "Applies the migrations the configured store lacks and prints their names. serve and ingest do the same when they start.",
  flags: {
    compact: {
      description:
        "then give the space the migrations freed back to the file system (SQLite: VACUUM, which needs free disk about the store's size; run it with the service stopped)",
    },
  },
  examples: [
    "pelagic migrate",
    "pelagic migrate --compact",
    "pelagic migrate --database-url postgres://localhost/pelagic",
  ],
  async run(config, flags) {
    await withMigratedStore(config, async (store, applied) => {
      console.log(applied.length ? `applied: ${applied.join(", ")}` : "store is up to date");
      if (flags.compact !== "true") return;
      const compacted = await compactStore(store);
      const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MiB`;
      console.log(
        compacted
          ? `compacted: ${mb(compacted.bytesBefore)} -> ${mb(compacted.bytesAfter)}`
          : "compacted: nothing to do (PostgreSQL gives a dropped table's space back at once)",
      );
    });
  },
};
