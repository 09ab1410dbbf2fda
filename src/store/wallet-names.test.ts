/**
 * The name indexes of `wallets` (0013_name_lookups) on both stores: they follow every write of a name (ingest's
 * sightings, a plain insert, update or delete), name every wallet holding a text, and serve the username lookup.
 */
import { sql, type RawBuilder } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeLocal, storeBackends } from "../../test/support/backends.js";
import { findWalletByName } from "../analytics/wallet/wallet-overview.js";
import type { Store } from "./database.js";
import { estimateNameIndexed, indexNameChanges, storeLower, textGrams, walletsNamed } from "./wallet-names.js";
import { insertFills, type NewFill } from "./fills.js";
import { newFill } from "./testing/new-fill.js";
import { recordFirstSightings, recordWalletSightings, recordWalletsOfFills, type WalletSighting } from "./wallets.js";

const wallet = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;

describeLocal("textGrams", () => {
  it("asks for a short text itself, and for each three-character piece of a longer one, by code point", () => {
    expect(textGrams("ab")).toEqual(["ab"]);
    expect(textGrams("🐋ab")).toEqual(["🐋ab"]);
    expect(textGrams("whale")).toEqual(["wha", "hal", "ale"]);
    expect(textGrams("aaaa")).toEqual(["aaa"]);
    expect(textGrams("")).toEqual([]);
  });
});

describe.each(storeBackends)("name indexes on $kind", (backend) => {
  let store: Store;
  let dispose: () => Promise<void>;
  beforeAll(async () => ({ store, dispose } = await backend.open()));
  afterAll(() => dispose());

  const record = (sightings: WalletSighting[]) => store.transaction((tx) => recordWalletSightings(tx, sightings, 1));
  /** The wallets the name index names for a (lowered) text. */
  const named = async (text: string) =>
    (
      await sql<{
        address: string;
      }>`select w.address from ${walletsNamed(store.kind, textGrams(text))} order by w.address`.execute(store.db)
    ).rows.map((r) => r.address);
  const count = async (query: RawBuilder<unknown>) =>
    Number((await sql<{ n: number }>`select count(*) as n from (${query}) q`.execute(store.db)).rows[0]!.n);
  /** What the index holds: one document (SQLite, once indexed) or row (PostgreSQL) per wallet with a name or pseudonym, none stale. */
  const documents = () =>
    count(store.kind === "sqlite" ? sql`select rowid from wallet_name_grams` : sql`select wallet from wallet_names`);
  const namedWallets = () => count(sql`select 1 from wallets where name is not null or pseudonym is not null`);

  it("lowers as the store does: ASCII letters only", async () => {
    const text = "ÀbC Éé \u0130Z \u01c5 ß \u212a";
    // As a column holds it: PostgreSQL's text columns compare (and lower) under COLLATE "C".
    const column = store.kind === "postgres" ? sql`${text}::text collate "C"` : sql`${text}`;
    const { rows } = await sql<{ lowered: string }>`select lower(${column}) as lowered`.execute(store.db);
    expect(rows[0]!.lowered).toBe(storeLower(text));
    expect(storeLower(text)).toBe("Àbc Éé \u0130z \u01c5 ß \u212a");
  });

  it("names the wallets holding a text as they are written, renamed, inserted, updated and deleted", async () => {
    await record([
      { address: wallet(1), ts: 10, name: "WhaleWatcher", pseudonym: "Brisk-Heron" },
      { address: wallet(2), ts: 10, name: null, pseudonym: "Calm-Otter" },
      { address: wallet(3), ts: 10 },
      { address: wallet(4), ts: 10, name: "ÉCOLE_🐋", pseudonym: null },
    ]);
    expect(await named("whale")).toEqual([wallet(1)]);
    expect(await named("heron")).toEqual([wallet(1)]);
    expect(await named("o")).toEqual([wallet(1), wallet(2), wallet(4)]);
    expect(await named("É")).toEqual([wallet(4)]);
    expect(await named("é")).toEqual([]);
    expect(await named("e_🐋")).toEqual([wallet(4)]);
    expect(await documents()).toEqual(await namedWallets());

    // Seen again with the same names (most sightings), then renamed; a sighting without names keeps them.
    await record([{ address: wallet(1), ts: 20, name: "WhaleWatcher", pseudonym: "Brisk-Heron" }]);
    await record([
      { address: wallet(1), ts: 30, name: "DolphinFan" },
      { address: wallet(2), ts: 30 },
    ]);
    expect(await named("whale")).toEqual([]);
    expect(await named("dolphin")).toEqual([wallet(1)]);
    expect(await named("heron")).toEqual([wallet(1)]);
    expect(await named("otter")).toEqual([wallet(2)]);
    // A wallet first seen without a profile gets one.
    await record([{ address: wallet(3), ts: 40, pseudonym: "Zesty-Yak" }]);
    expect(await named("yak")).toEqual([wallet(3)]);

    await store.db
      .insertInto("wallets")
      .values({
        address: wallet(5),
        proxy_wallet: null,
        signer: null,
        name: "walrus",
        pseudonym: null,
        bio: null,
        profile_image: null,
        first_seen: 1,
        last_seen: 1,
        updated_at: 1,
      })
      .execute();
    await store.db.updateTable("wallets").set({ pseudonym: "Odd-Otter" }).where("address", "=", wallet(3)).execute();
    await store.db
      .updateTable("wallets")
      .set({ name: null, pseudonym: null })
      .where("address", "=", wallet(2))
      .execute();
    await store.db.deleteFrom("wallets").where("address", "=", wallet(4)).execute();
    // SQLite: until ingest's next batch indexes them, the wallets written so are named whatever the text.
    const noted = store.kind === "sqlite" ? [wallet(2), wallet(3), wallet(5)] : [];
    const withNoted = (found: string[]) => [...new Set([...found, ...noted])].sort();
    expect(await named("walrus")).toEqual(withNoted([wallet(5)]));
    expect(await named("otter")).toEqual(withNoted([wallet(3)]));
    await store.transaction(async (tx) => indexNameChanges(tx));
    expect(await named("walrus")).toEqual([wallet(5)]);
    expect(await named("otter")).toEqual([wallet(3)]);
    expect(await named("yak")).toEqual([]);
    expect(await named("É")).toEqual([]);
    expect(await documents()).toEqual(await namedWallets());
    // SQLite's index is keyed by the wallets' rowids: a VACUUM must keep them.
    if (store.kind === "sqlite") {
      await sql`vacuum`.execute(store.db);
      expect(await named("walrus")).toEqual([wallet(5)]);
      expect(await named("heron")).toEqual([wallet(1)]);
    }
  });

  it("counts the wallets it names up to a cap (SQLite), or estimates them (PostgreSQL)", async () => {
    await record(Array.from({ length: 30 }, (_, i) => ({ address: wallet(100 + i), ts: 1, name: `counted${i}` })));
    const counted = await estimateNameIndexed(store, textGrams("counted"), 10);
    if (store.kind === "sqlite") {
      expect(counted).toBe(10);
      expect(await estimateNameIndexed(store, textGrams("counted"), 1_000)).toBe(30);
      expect(await estimateNameIndexed(store, textGrams("uncounted"), 1_000)).toBe(0);
    } else {
      expect(counted).toBeGreaterThanOrEqual(0);
    }
  });

  it("finds a wallet by username or pseudonym: exact case first, then any case, the latest seen first", async () => {
    await record([
      { address: wallet(200), ts: 100, name: "SharpOwl", pseudonym: "Shy-Lynx" },
      { address: wallet(201), ts: 200, name: "sharpowl", pseudonym: "Tidy-Lynx" },
      { address: wallet(202), ts: 300, name: null, pseudonym: "Shy-Lynx" },
    ]);
    expect(await findWalletByName(store, "SharpOwl")).toBe(wallet(200));
    expect(await findWalletByName(store, "sharpowl")).toBe(wallet(201));
    expect(await findWalletByName(store, "SHARPOWL")).toBe(wallet(201));
    expect(await findWalletByName(store, "Shy-Lynx")).toBe(wallet(202));
    expect(await findWalletByName(store, "tidy-lynx")).toBe(wallet(201));
    expect(await findWalletByName(store, "no-such-trader")).toBeNull();
  });

  it("keeps names and the name index through a first sync's wallets: first seen per batch, the fills' times at its end", async () => {
    const [named1, seenOnce, seenTwice] = [wallet(300), wallet(301), wallet(302)];
    await record([{ address: named1, ts: 50, name: "Narwhal", pseudonym: "Deep-Diver" }]);
    const rows = () =>
      store.db
        .selectFrom("wallets")
        .select(["address", "name", "pseudonym", "first_seen", "last_seen", "updated_at"])
        .where("address", "in", [named1, seenOnce, seenTwice])
        .orderBy("address")
        .execute();
    const fill = (n: number, address: string, ts: number): NewFill =>
      newFill({
        fill_key: `chain:${String(n).padStart(10, "0")}:000000`,
        tx_hash: `0x${n}`,
        block_number: n,
        wallet: address,
        condition_id: "0xcond",
        ts,
      });
    // A batch: each wallet at its first fill; the named wallet's row exists and is left as it is.
    await store.transaction(async (tx) => {
      await insertFills(tx, [fill(1, named1, 40), fill(2, seenTwice, 45), fill(3, seenOnce, 80)]);
      await recordFirstSightings(
        tx,
        [
          { address: named1, ts: 40 },
          { address: seenTwice, ts: 45 },
          { address: seenOnce, ts: 80 },
        ],
        2,
      );
    });
    expect(await rows()).toEqual([
      { address: named1, name: "Narwhal", pseudonym: "Deep-Diver", first_seen: 50, last_seen: 50, updated_at: 1 },
      { address: seenOnce, name: null, pseudonym: null, first_seen: 80, last_seen: 80, updated_at: 2 },
      { address: seenTwice, name: null, pseudonym: null, first_seen: 45, last_seen: 45, updated_at: 2 },
    ]);
    // The sync's end: every fill's times merged in; a row they do not change is not written.
    await store.transaction(async (tx) => {
      await insertFills(tx, [fill(4, seenTwice, 70), fill(5, named1, 60)]);
      await recordWalletsOfFills(tx, 3);
    });
    expect(await rows()).toEqual([
      { address: named1, name: "Narwhal", pseudonym: "Deep-Diver", first_seen: 40, last_seen: 60, updated_at: 3 },
      { address: seenOnce, name: null, pseudonym: null, first_seen: 80, last_seen: 80, updated_at: 2 },
      { address: seenTwice, name: null, pseudonym: null, first_seen: 45, last_seen: 70, updated_at: 3 },
    ]);
    // The names were not rewritten: nothing for the SQLite index to take, and both stores still name the wallet.
    if (store.kind === "sqlite") expect(await count(sql`select wallet_rowid from wallet_name_changes`)).toBe(0);
    expect(await named("narwhal")).toEqual([named1]);
    expect(await named("diver")).toEqual([named1]);
    expect(await documents()).toEqual(await namedWallets());
  });
});
