/**
 * What a SQLite file store costs to open and to keep: processor time of opening and closing N stores, and of one
 * store left idle, with the WAL checkpoint worker (src/store/wal-checkpointer.ts) and without it. Usage:
 * npm run bench store-open [-- --stores 30 --idle-seconds 5]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openStore } from "../src/store/database.js";

const { values } = parseArgs({ options: { stores: { type: "string" }, "idle-seconds": { type: "string" } } });
const STORES = Number(values.stores ?? 30);
const IDLE_MS = Number(values["idle-seconds"] ?? 5) * 1000;

const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return Math.round((used.user + used.system) / 1000);
};

async function measure(backgroundCheckpoints: boolean): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "pelagic-store-open-"));
  try {
    const open = (name: string) =>
      openStore({ kind: "sqlite", sqlitePath: join(dir, name), sqliteBackgroundCheckpoints: backgroundCheckpoints });
    let started = performance.now();
    let cpu = process.cpuUsage();
    for (let i = 0; i < STORES; i++) await (await open(`store-${i}.sqlite`)).close();
    const label = backgroundCheckpoints ? "with the checkpoint worker" : "without it";
    console.log(
      `${label}: ${STORES} stores opened and closed in ${Math.round(performance.now() - started)} ms, ${cpuMs(cpu)} ms of processor time`,
    );
    const idle = await open("idle.sqlite");
    started = performance.now();
    cpu = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    console.log(
      `${label}: one store idle ${Math.round(performance.now() - started)} ms, ${cpuMs(cpu)} ms of processor time`,
    );
    await idle.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await measure(true);
await measure(false);
