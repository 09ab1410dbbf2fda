/**
 * Migration 0055 (src/store/migrations/0055_funding_by_ids.ts): the funding reader's transfers are stored by address
 * ids with their hash as bytes (src/store/funding-layout.ts). A store written before migrates: the view
 * `funding_transfers` reads every transfer as the table held it (a hash not written canonically among them), the
 * rows hold the ids and bytes, the reads by address sum the same edges, and a write after the migration stores new
 * transfers once. On SQLite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import { describe, expect, it } from "vitest";
import { migrationsBefore, storeBackends } from "../../test/support/backends.js";
import type { Store } from "./database.js";
import {
  allFundingEdges,
  fundingEdgesInto,
  fundingMark,
  recipientCounts,
  saveTracedFunding,
  type StoredFundingEdge,
} from "./funding.js";
import { FUNDING_TRANSFER_ROWS } from "./funding-layout.js";
import { migrateStore } from "./migrate.js";
import { queryRows } from "./raw-sql.js";
import type { FundingTransfersTable } from "./schema.js";

const address = (prefix: string, n: number) => `0x${prefix}${n.toString(16).padStart(40 - prefix.length, "0")}`;
const TOKENS = [address("2791bca1", 1), address("c011a7e1", 2)];
const SENDERS = Array.from({ length: 12 }, (_, i) => address("5e", i));
const RECIPIENTS = Array.from({ length: 40 }, (_, i) => address("7e", i));
/** Hashes as a chain client could give them that are not `0x` and 64 lower-case hex digits: stored as their text. */
const ODD_HASHES = [`0x${"AB".repeat(32)}`, "0x1234", `${"c".repeat(64)}`, `0x${"d".repeat(63)}g`];

/** Transfers at distinct places on chain, senders and recipients taking turns; amounts past 32 bits. */
function someTransfers(count: number, firstBlock: number): FundingTransfersTable[] {
  return Array.from({ length: count }, (_, i) => ({
    block_number: firstBlock + Math.floor(i / 3),
    log_index: (i % 3) * 7,
    tx_hash:
      i % 50 === 7 ? ODD_HASHES[((i / 50) % ODD_HASHES.length) | 0]! : `0x${(i + 1).toString(16).padStart(64, "0")}`,
    ts: 1_726_000_000 + 2 * i,
    token: TOKENS[i % 2]!,
    from_address: SENDERS[(i * 7) % SENDERS.length]!,
    to_address: RECIPIENTS[(i * 13) % RECIPIENTS.length]!,
    amount_micro: 1_000_000 * (i + 1) + (i % 5) * 3_000_000_000,
  }));
}

const viewRows = (store: Store) =>
  queryRows<Record<string, unknown>>(
    store.db,
    store.kind,
    "select * from funding_transfers order by block_number, log_index",
  );

/** The edges the transfers sum to, in the order of their texts (sender, then recipient). */
function edgesOf(transfers: readonly FundingTransfersTable[]): StoredFundingEdge[] {
  const byPair = new Map<string, StoredFundingEdge>();
  for (const t of transfers) {
    const key = `${t.from_address}|${t.to_address}`;
    const e = byPair.get(key) ?? { from: t.from_address, to: t.to_address, usd: 0, transfers: 0, firstTs: t.ts };
    byPair.set(key, {
      ...e,
      usd: e.usd + t.amount_micro,
      transfers: e.transfers + 1,
      firstTs: Math.min(e.firstTs, t.ts),
    });
  }
  return [...byPair.values()]
    .map((e) => ({ ...e, usd: e.usd / 1e6 }))
    .sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : a.to < b.to ? -1 : a.to > b.to ? 1 : 0));
}

describe.each(storeBackends)("funding transfers by ids, on $kind", (backend) => {
  it("migration 0055 keeps every transfer as it was, stores ids and bytes, and a write after it stores each transfer once", async () => {
    const { store, dispose } = await backend.open({ migrations: migrationsBefore("0055_funding_by_ids") });
    try {
      // Some addresses are in the dictionary already (wallets the fills named), the others are added by the migration.
      await store.db
        .insertInto("address_ids")
        .values([RECIPIENTS[3]!, RECIPIENTS[0]!, SENDERS[5]!].map((a) => ({ address: a })))
        .execute();
      const written = someTransfers(600, 60_000_000);
      expect(written.filter((t) => ODD_HASHES.includes(t.tx_hash)).length).toBeGreaterThanOrEqual(ODD_HASHES.length);
      for (let i = 0; i < written.length; i += 100)
        await store.db
          .insertInto("funding_transfers")
          .values(written.slice(i, i + 100))
          .execute();
      const before = await viewRows(store);
      expect(before).toHaveLength(written.length);

      await migrateStore(store);

      const after = await viewRows(store);
      expect(after).toEqual(before);
      expect(JSON.stringify(after)).toBe(JSON.stringify(before));
      for (const hash of ODD_HASHES) expect(after.some((r) => r.tx_hash === hash)).toBe(true);

      // The rows hold each address as its dictionary id, a canonical hash as its 32 bytes, any other as its text.
      const ids = new Map(
        (await store.db.selectFrom("address_ids").select(["id", "address"]).execute()).map((r) => [
          r.address,
          Number(r.id),
        ]),
      );
      const rows = await queryRows<Record<string, unknown>>(
        store.db,
        store.kind,
        `select token_address_id, from_id, to_id, tx_hash, tx_text from ${FUNDING_TRANSFER_ROWS}
          order by block_number, log_index`,
      );
      expect(
        rows.map((r) => [Number(r.token_address_id), Number(r.from_id), Number(r.to_id), r.tx_text ?? null]),
      ).toEqual(
        written.map((t) => [
          ids.get(t.token),
          ids.get(t.from_address),
          ids.get(t.to_address),
          ODD_HASHES.includes(t.tx_hash) ? t.tx_hash : null,
        ]),
      );
      expect(
        rows.map((r) => (r.tx_hash == null ? null : Buffer.from(r.tx_hash as Uint8Array).toString("hex"))),
      ).toEqual(written.map((t) => (ODD_HASHES.includes(t.tx_hash) ? null : t.tx_hash.slice(2))));

      // The reads by address, by id: the same sums as the transfers make, in the order of the texts.
      expect(await allFundingEdges(store.db)).toEqual(edgesOf(written));
      const into = RECIPIENTS.slice(0, 9);
      expect(await fundingEdgesInto(store, into)).toEqual(edgesOf(written.filter((t) => into.includes(t.to_address))));
      const senders = [...SENDERS.slice(2, 6), address("0", 99)];
      const counts = await recipientCounts(store, senders);
      expect(Object.fromEntries(counts)).toEqual(
        Object.fromEntries(
          senders
            .map((s) => [s, new Set(written.filter((t) => t.from_address === s).map((t) => t.to_address)).size])
            .filter(([, n]) => n !== 0),
        ),
      );

      // Written after: a stored transfer is not stored again, a new one (to a new address) once, however often saved.
      const fresh = someTransfers(30, 70_000_000).map((t, i) => ({ ...t, to_address: address("ae", i % 4) }));
      const save = (transfers: FundingTransfersTable[]) =>
        saveTracedFunding(store, { traced: [], toBlock: 70_000_100, transfers, funders: [] });
      const mark = await fundingMark(store.db);
      await save([...written.slice(0, 50), ...fresh]);
      await save(fresh);
      await save([...fresh, ...fresh]);
      const all = await viewRows(store);
      expect(all).toHaveLength(written.length + fresh.length);
      expect(all.slice(written.length)).toEqual(fresh.map((t) => ({ ...t })));
      expect(await fundingMark(store.db)).not.toBe(mark);
      expect(await fundingEdgesInto(store, [address("ae", 1)])).toEqual(
        edgesOf(fresh.filter((t) => t.to_address === address("ae", 1))),
      );
    } finally {
      await dispose();
    }
  });

  it("indexes the rows by the ids the reads filter on", async () => {
    const { store, dispose } = await backend.open();
    try {
      const text =
        store.kind === "sqlite"
          ? `select i.name as name, group_concat(c.name, ', ') as columns
              from pragma_index_list('${FUNDING_TRANSFER_ROWS}') i join pragma_index_info(i.name) c
              where i.origin = 'c' group by i.name order by i.name`
          : `select indexname as name, substring(indexdef from '\\((.*)\\)') as columns from pg_indexes
              where schemaname = current_schema() and tablename = '${FUNDING_TRANSFER_ROWS}'
                and indexname like 'funding_transfers_%' order by indexname`;
      expect(await queryRows(store.db, store.kind, text)).toEqual([
        { name: "funding_transfers_from", columns: "from_id, to_id" },
        { name: "funding_transfers_to", columns: "to_id" },
      ]);
      // SQLite: the rows are their key's b-tree, no key index beside them.
      if (store.kind === "sqlite")
        expect(
          await queryRows(store.db, store.kind, "select wr from pragma_table_list(?)", [FUNDING_TRANSFER_ROWS]),
        ).toEqual([{ wr: 1 }]);
    } finally {
      await dispose();
    }
  });
});
