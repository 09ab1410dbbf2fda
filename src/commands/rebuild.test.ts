import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config/index.js";
import { loadWorld } from "../derive/testing/stored-world.js";
import { ManualClock } from "../platform/clock.js";
import { smallWorld } from "../sim/world/testing/worlds.js";
import { openStore } from "../store/database.js";
import { migrateStore } from "../store/migrate.js";
import { runRebuildCommand } from "./rebuild.js";

describe("pelagic rebuild", () => {
  const dir = mkdtempSync(join(tmpdir(), "pelagic-rebuild-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("rebuilds the configured store and says what it did", async () => {
    const world = smallWorld(3, { fills: 3_000, wallets: 120, markets: 20 });
    const config = loadConfig({ DATA_DIR: dir });
    const store = await openStore({ kind: "sqlite", sqlitePath: config.store.sqlitePath });
    await migrateStore(store);
    await loadWorld(store, world);
    await store.close();

    const lines: string[] = [];
    await runRebuildCommand(config, new ManualClock((world.end + 60) * 1000), (line) => lines.push(line));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^rebuilt as of \d{4}-\d\d-\d\dT.*: [\d,]+ fills, \d+ wallets, \d+ positions, \d+ markets/,
    );

    const reopened = await openStore({ kind: "sqlite", sqlitePath: config.store.sqlitePath });
    const positions = await reopened.db
      .selectFrom("positions")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    await reopened.close();
    expect(Number(positions.n)).toBeGreaterThan(0);
  });
});
