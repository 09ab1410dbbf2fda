import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/support/backends.js";
import { ManualClock } from "../platform/clock.js";
import { createLogger } from "../platform/logger.js";
import { readCheckpoint, saveCheckpoint } from "../store/checkpoints.js";
import type { Store } from "../store/database.js";
import { newFill } from "../store/testing/new-fill.js";
import type { NewActivity, NewFill } from "../store/fills.js";
import { CONTRACTS } from "../venue/index.js";
import { BatchWriter, type CommittedBatch } from "./batch-writer.js";

const WALLET = "0x00000000000000000000000000000000000a11ce";
const OTHER = "0x0000000000000000000000000000000000000b0b";
const EXCHANGE = CONTRACTS.ctfExchangeV2.toLowerCase();

function fill(key: string, overrides: Partial<NewFill> = {}): NewFill {
  return newFill({ fill_key: key, wallet: WALLET, counterparty: OTHER, role: "maker", ...overrides });
}

const merge = (wallet: string, key: string): NewActivity => ({
  activity_key: key,
  source: "chain",
  wallet,
  type: "MERGE",
  condition_id: "0xc",
  token_id: null,
  outcome_index: null,
  size: 1,
  usd: 1,
  price: 0.5,
  ts: 1_770_000_000,
  tx_hash: "0xm",
  log_index: 0,
});

describe.each(storeBackends)("batch writer on $kind", (backend) => {
  let store: Store;
  let dispose: () => Promise<void>;
  let writer: BatchWriter;
  const committed: CommittedBatch[] = [];

  beforeAll(async () => {
    ({ store, dispose } = await backend.open());
    writer = new BatchWriter(store, new ManualClock(Date.UTC(2026, 5, 1)), createLogger("silent"));
    writer.onCommitted((b) => void committed.push(b));
  });
  afterAll(async () => {
    await dispose();
  });

  it("leaves nothing and the checkpoint unmoved when a batch fails mid-transaction", async () => {
    await saveCheckpoint(store.db, "test-source", "block:10", 1);
    committed.length = 0;
    // The third fill lacks its wallet: the insert fails after the first two rows went in.
    const broken = [
      fill("chain:0xfail:0"),
      fill("chain:0xfail:1"),
      fill("chain:0xfail:2", { wallet: null as unknown as string }),
    ];
    await expect(
      writer.commit({
        source: "test-source",
        cursor: "block:20",
        fills: broken,
        activity: [merge(WALLET, "chain:0xfail-activity:0")],
        sightings: [{ address: OTHER, ts: 5, name: "bob" }],
      }),
    ).rejects.toThrow();
    expect(await store.db.selectFrom("fills").select("id").where("tx_hash", "=", "0xt").execute()).toEqual([]);
    expect(await store.db.selectFrom("wallet_activity").select("id").execute()).toEqual([]);
    expect(await store.db.selectFrom("wallets").select("address").execute()).toEqual([]);
    expect(await readCheckpoint(store.db, "test-source")).toMatchObject({ cursor: "block:10" });
    expect(committed).toEqual([]);
  });

  it("keeps the venue's contracts out of fills and wallets, and hands listeners only new rows", async () => {
    committed.length = 0;
    const rows = [
      fill("chain:0xok:0"),
      fill("chain:0xok:1", { wallet: EXCHANGE }),
      fill("chain:0xok:2", { counterparty: EXCHANGE }),
    ];
    const first = await writer.commit({
      source: "test-source",
      cursor: "block:30",
      fills: rows,
      activity: [merge(EXCHANGE, "chain:0xm:0"), merge(WALLET, "chain:0xm:1")],
    });
    expect(first.fills.map((f) => [f.fill_key, f.counterparty])).toEqual([
      ["chain:0xok:0", OTHER],
      ["chain:0xok:2", null],
    ]);
    expect(first.activity.map((a) => a.activity_key)).toEqual(["chain:0xm:1"]);
    expect((await store.db.selectFrom("wallets").select("address").execute()).map((w) => w.address)).toEqual([WALLET]);
    const again = await writer.commit({ source: "test-source", cursor: "block:30", fills: rows });
    expect(again.fills).toEqual([]);
    expect(committed.map((b) => b.fills.length)).toEqual([2, 0]);
    expect(await readCheckpoint(store.db, "test-source")).toMatchObject({ cursor: "block:30" });
  });

  it("counts skipped records in the same transaction as the batch", async () => {
    await writer.commit({
      source: "skips",
      cursor: "c1",
      skipped: [
        { origin: "data-api /trades offset 0 row 3", reason: "amount beyond 2^53" },
        { origin: "data-api /trades offset 0 row 9", reason: "bad price" },
      ],
    });
    expect(await readCheckpoint(store.db, "skips")).toMatchObject({
      cursor: "c1",
      errors: 2,
      last_error: "data-api /trades offset 0 row 9: bad price",
    });
  });

  it("keeps a wallet's first and last sighting and its profile across batches", async () => {
    await writer.commit({
      source: "profiles",
      cursor: "1",
      sightings: [{ address: OTHER, ts: 200, name: "bob", pseudonym: "Brisk-Heron" }],
    });
    await writer.commit({
      source: "profiles",
      cursor: "2",
      sightings: [
        { address: OTHER, ts: 100 },
        { address: OTHER, ts: 300, bio: "hi" },
      ],
    });
    expect(
      await store.db
        .selectFrom("wallets")
        .select(["name", "pseudonym", "bio", "first_seen", "last_seen"])
        .where("address", "=", OTHER)
        .executeTakeFirst(),
    ).toEqual({
      name: "bob",
      pseudonym: "Brisk-Heron",
      bio: "hi",
      first_seen: 100,
      last_seen: 300,
    });
  });
});
