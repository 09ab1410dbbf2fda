/**
 * The Deriver's replay order (event-stream.ts): every stored fill and activity row once, wallets in address order,
 * each wallet's rows in ledger order, the same whatever the page size (a page boundary falls inside wallets and
 * between them), and each scope (a wallet, a time range) the matching part of the whole. On SQLite, and on
 * PostgreSQL with TEST_DATABASE_URL.
 */
import { describe, expect, it } from "vitest";
import { sqliteBackend, storeBackends } from "../../test/support/backends.js";
import { smallWorld } from "../sim/world/testing/worlds.js";
import { openStore, type Store } from "../store/database.js";
import { migrateStore } from "../store/migrate.js";
import { queryRows } from "../store/raw-sql.js";
import { type StreamScope, type StreamedRow, streamWalletEvents } from "./event-stream.js";
import { FILL_COLUMNS, compareEventOrder } from "./stored-events.js";
import { loadWorld } from "./testing/stored-world.js";

async function streamed(store: Store, scope: StreamScope, pageRows: number): Promise<StreamedRow[]> {
  const rows: StreamedRow[] = [];
  await streamWalletEvents(store, scope, (row) => rows.push(row), pageRows);
  return rows;
}

/** Where a wallet comes in the stream of every wallet: by address, or on SQLite by its id in the dictionary. */
async function walletRanks(store: Store): Promise<(wallet: string) => string | number> {
  if (store.kind !== "sqlite") return (wallet) => wallet;
  const ids = new Map(
    (await queryRows<{ id: number; address: string }>(store.db, store.kind, "select id, address from address_ids")).map(
      (r) => [r.address, Number(r.id)],
    ),
  );
  return (wallet) => ids.get(wallet)!;
}

const orderKey = (r: StreamedRow) => ({ ts: r.row.ts, logIndex: r.row.log_index, kind: r.kind });
const identity = (r: StreamedRow) => `${r.kind}:${r.row.id}`;

describe.each(storeBackends)("the replay's event stream, on $kind", (backend) => {
  it("gives every row once in wallet and ledger order, page by page as in one read, and each scope its part", async () => {
    const { store, dispose } = await backend.open();
    try {
      const world = smallWorld(3);
      await loadWorld(store, world);
      const whole = await streamed(store, {}, 1_000_000);
      const [fills] = await queryRows<{ n: number }>(store.db, store.kind, "select count(*) as n from fills");
      const [activity] = await queryRows<{ n: number }>(
        store.db,
        store.kind,
        "select count(*) as n from wallet_activity",
      );
      expect(whole.length).toBe(Number(fills!.n) + Number(activity!.n));
      expect(new Set(whole.map(identity)).size).toBe(whole.length);
      // Each wallet's rows together and in ledger order; wallets by address, or on SQLite by their ids.
      const walletOrder = await walletRanks(store);
      for (let i = 1; i < whole.length; i++) {
        const [a, b] = [whole[i - 1]!, whole[i]!];
        expect(walletOrder(a.row.wallet) <= walletOrder(b.row.wallet)).toBe(true);
        if (a.row.wallet === b.row.wallet) expect(compareEventOrder(orderKey(a), orderKey(b))).toBeLessThanOrEqual(0);
      }
      // Each row as the view `fills` gives it, column for column (the SQLite stream reads ids and the dictionaries).
      const viewed = new Map(
        (
          await queryRows<Record<string, unknown>>(
            store.db,
            store.kind,
            `select id, ${FILL_COLUMNS.join(", ")} from fills`,
          )
        ).map((row) => [Number(row.id), row]),
      );
      const streamedFills = whole.filter((r) => r.kind === 0);
      expect(streamedFills.length).toBe(viewed.size);
      for (const { row } of streamedFills) {
        const view = viewed.get(row.id)!;
        expect(row).toEqual(Object.fromEntries(Object.keys(row).map((name) => [name, view[name]])));
      }
      for (const pageRows of [1, 7, 100])
        expect((await streamed(store, {}, pageRows)).map(identity)).toEqual(whole.map(identity));

      const wallet = whole[Math.floor(whole.length / 2)]!.row.wallet;
      expect((await streamed(store, { wallet }, 3)).map(identity)).toEqual(
        whole.filter((r) => r.row.wallet === wallet).map(identity),
      );
      const middle = whole.map((r) => r.row.ts).sort((a, b) => a - b)[Math.floor(whole.length / 2)]!;
      expect((await streamed(store, { before: middle }, 5)).map(identity)).toEqual(
        whole.filter((r) => r.row.ts < middle).map(identity),
      );
      expect((await streamed(store, { from: middle }, 5)).map(identity)).toEqual(
        whole.filter((r) => r.row.ts >= middle).map(identity),
      );
    } finally {
      await dispose();
    }
  }, 120_000);
});

it("reads a SQLite store in memory on the caller's thread, as a file's pages on the page thread", async () => {
  const world = smallWorld(3);
  const { store: file, dispose } = await sqliteBackend.open();
  const memory = await openStore({ kind: "sqlite", sqlitePath: ":memory:" });
  try {
    await migrateStore(memory);
    await loadWorld(file, world);
    await loadWorld(memory, world);
    const fromFile = (await streamed(file, {}, 50)).map((r) => ({ ...r.row }));
    expect(fromFile.length).toBeGreaterThan(1_000);
    expect((await streamed(memory, {}, 50)).map((r) => ({ ...r.row }))).toEqual(fromFile);
  } finally {
    await memory.close();
    await dispose();
  }
}, 120_000);
