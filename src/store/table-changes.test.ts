import { afterEach, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/support/backends.js";
import { tableChangesStamp } from "./table-changes.js";

const event = (id: string) => ({
  id,
  slug: id,
  title: "An event",
  category: "Politics",
  neg_risk: 0 as const,
  neg_risk_market_id: null,
  end_date: null,
  closed: 0 as const,
  tags: "[]",
  updated_at: 100,
});

const disposers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (disposers.length) await disposers.pop()?.();
});

describe.each(storeBackends)("table change counters on $kind", (backend) => {
  it("move with every insert, update and delete of a counted table, and only its own", async () => {
    const { store, dispose } = await backend.open();
    disposers.push(dispose);
    const stamp = () => tableChangesStamp(store, ["events"]);
    const others = () => tableChangesStamp(store, ["markets", "market_resolutions", "market_stats"]);
    const untouched = await others();
    const seen = [await stamp()];
    await store.db.insertInto("events").values(event("e1")).execute();
    seen.push(await stamp());
    // The same row written again in the same second, with the same update time: what row counts and sums of update
    // times could not see.
    await store.db.updateTable("events").set({ title: "Renamed", updated_at: 100 }).where("id", "=", "e1").execute();
    seen.push(await stamp());
    await store.db.deleteFrom("events").where("id", "=", "e1").execute();
    seen.push(await stamp());
    expect(new Set(seen).size).toBe(4);
    expect(await others()).toBe(untouched);
  });

  it("count in the transaction that writes: a rolled-back write leaves them as they were", async () => {
    const { store, dispose } = await backend.open();
    disposers.push(dispose);
    const before = await tableChangesStamp(store, ["events"]);
    await expect(
      store.transaction(async (tx) => {
        await tx.db.insertInto("events").values(event("e2")).execute();
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await tableChangesStamp(store, ["events"])).toBe(before);
    await store.db.insertInto("events").values(event("e2")).execute();
    expect(await tableChangesStamp(store, ["events"])).not.toBe(before);
  });
});
