import { afterEach, describe, expect, it } from "vitest";
import { DataApiClient } from "./data-api.js";
import { VenueHttpClient } from "./http.js";
import { collectPages, type OffsetPagingEnd, type RowsPage } from "./paging.js";
import { PnlClient } from "./pnl.js";
import type { DataTradeRow } from "./shapes/data-api.js";
import { fakeTime } from "./testing/fake-time.js";
import { startLoopback, type Loopback, type LoopbackHandler } from "./testing/loopback.js";

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const CEILING_BODY = { error: "max historical trades offset of 10000 exceeded" };

function tradeRow(i: number): DataTradeRow {
  return {
    proxyWallet: `0x${i.toString(16).padStart(40, "0")}`,
    side: i % 2 === 0 ? "BUY" : "SELL",
    asset: "123456789",
    conditionId: `0x${"c".repeat(64)}`,
    size: 10.5,
    price: 0.42,
    timestamp: 1_770_000_000 + i,
    outcomeIndex: 0,
    transactionHash: `0x${i.toString(16).padStart(64, "0")}`,
    title: "Will it?",
    outcome: "Yes",
  };
}

/** Serves `rows` by offset/limit, answering the venue's 400 past `ceiling`. */
function listHandler(rows: unknown[], ceiling = 10_000, maxLimit = 10_000): LoopbackHandler {
  return (req) => {
    const offset = Number(req.query.get("offset") ?? 0);
    const limit = Math.min(Number(req.query.get("limit") ?? 100), maxLimit);
    if (offset > ceiling) return { status: 400, body: CEILING_BODY };
    return { body: rows.slice(offset, offset + limit) };
  };
}

async function dataApi(handler: LoopbackHandler) {
  server = await startLoopback(handler);
  const time = fakeTime();
  const http = new VenueHttpClient({
    name: "data-api",
    baseUrl: server.url,
    timeoutMs: 2_000,
    clock: time.clock,
    sleep: time.sleep,
    random: () => 0,
  });
  return { client: new DataApiClient(http), time, server };
}

async function drain<T>(paging: AsyncGenerator<RowsPage<T> | OffsetPagingEnd>) {
  const pages: RowsPage<T>[] = [];
  let end: OffsetPagingEnd | undefined;
  for await (const item of paging) {
    if (item.type === "page") pages.push(item);
    else end = item;
  }
  return { pages, end };
}

describe("DataApiClient paging", () => {
  it("pages /trades to the end of a short list and says it is complete", async () => {
    const rows = Array.from({ length: 25 }, (_, i) => tradeRow(i));
    const { client, server } = await dataApi(listHandler(rows));
    const { pages, end } = await drain(
      client.trades({ user: "0xabc", market: ["0x1", "0x2"], takerOnly: false }, { pageSize: 10 }),
    );
    expect(pages.map((p) => [p.offset, p.rows.length])).toEqual([
      [0, 10],
      [10, 10],
      [20, 5],
    ]);
    expect(end).toEqual({ type: "end", truncated: false, rowCount: 25, nextOffset: 25 });
    const q = server.requests[0]?.query;
    expect([q?.get("user"), q?.get("market"), q?.get("takerOnly"), q?.get("limit"), q?.get("offset")]).toEqual([
      "0xabc",
      "0x1,0x2",
      "false",
      "10",
      "0",
    ]);
  });

  it("stops at the documented 10000 offset ceiling and reports truncation", async () => {
    const rows = Array.from({ length: 15_001 }, (_, i) => tradeRow(i));
    const { client, server } = await dataApi(listHandler(rows));
    const { pages, end } = await drain(client.trades({}, { pageSize: 5_000 }));
    expect(pages.map((p) => p.offset)).toEqual([0, 5_000, 10_000]);
    expect(end).toMatchObject({ truncated: true, rowCount: 15_000, nextOffset: 15_000 });
    // It never asks past the ceiling.
    expect(server.requests.every((r) => Number(r.query.get("offset")) <= 10_000)).toBe(true);
  });

  it("detects a lower ceiling from the venue's 400 body instead of failing or stopping silently", async () => {
    const rows = Array.from({ length: 50 }, (_, i) => tradeRow(i));
    const { client } = await dataApi(listHandler(rows, 20));
    const { pages, end } = await drain(client.trades({}, { pageSize: 10 }));
    expect(pages).toHaveLength(3);
    expect(end).toEqual({ type: "end", truncated: true, rowCount: 30, nextOffset: 30 });
  });

  it("a list that ends exactly at a full page is complete", async () => {
    const rows = Array.from({ length: 20 }, (_, i) => tradeRow(i));
    const { client } = await dataApi(listHandler(rows));
    const { pages, end } = await drain(client.trades({}, { pageSize: 10 }));
    expect(pages.map((p) => p.rows.length)).toEqual([10, 10, 0]);
    expect(end?.truncated).toBe(false);
  });

  it("skips a malformed row, keeps the rest, and keeps counting offsets by what was received", async () => {
    const rows: unknown[] = Array.from({ length: 12 }, (_, i) => tradeRow(i));
    rows[3] = { ...tradeRow(3), outcomes: "x", size: "ten" };
    const { client, server } = await dataApi(listHandler(rows));
    const { rows: valid, rejected, truncated } = await collectPages(client.trades({}, { pageSize: 10 }));
    expect(valid).toHaveLength(11);
    expect(rejected).toHaveLength(1);
    expect(rejected[0]).toMatchObject({ source: "data-api /trades offset 0", index: 3 });
    expect(rejected[0]?.issues.map((i) => i.path)).toContain("/size");
    expect(truncated).toBe(false);
    expect(server.requests.map((r) => r.query.get("offset"))).toEqual(["0", "10"]);
  });

  it("caps page sizes at each endpoint's maximum", async () => {
    const { client, server } = await dataApi(() => ({ body: [] }));
    await collectPages(client.activity("0xabc", { type: ["TRADE", "REDEEM"] }, { pageSize: 5_000 }));
    await collectPages(client.closedPositions("0xabc", {}, { pageSize: 5_000 }));
    expect(server.requests.map((r) => [r.path, r.query.get("limit")])).toEqual([
      ["/activity", "500"],
      ["/closed-positions", "50"],
    ]);
    expect(server.requests[0]?.query.get("type")).toBe("TRADE,REDEEM");
  });

  it("leaderboard pages stop at its 1000 offset ceiling", async () => {
    const rows = Array.from({ length: 1_100 }, (_, i) => ({
      rank: String(i + 1),
      proxyWallet: `0x${i.toString(16).padStart(40, "0")}`,
      userName: "",
      vol: 10,
      pnl: 1,
      profileImage: "",
      xUsername: "",
      verifiedBadge: false,
    }));
    const { client } = await dataApi(listHandler(rows, 1_000, 50));
    const { rows: got, truncated } = await collectPages(client.leaderboard({ timePeriod: "ALL", orderBy: "PNL" }));
    expect(got).toHaveLength(1_050);
    expect(truncated).toBe(true);
  });

  it("retries a 429 on /positions with the venue's Retry-After", async () => {
    let calls = 0;
    const { client, time } = await dataApi(() =>
      ++calls === 1 ? { status: 429, headers: { "retry-after": "2" } } : { body: [] },
    );
    const { end } = await drain(client.positions("0xabc"));
    expect(end?.truncated).toBe(false);
    expect(time.sleeps).toEqual([2_000]);
  });
});

describe("DataApiClient single reads", () => {
  it("value, traded and holders", async () => {
    const wallet = `0x${"ab".repeat(20)}`;
    const { client, server } = await dataApi((req) => {
      if (req.path === "/value") return { body: [{ user: wallet, value: 1234.56 }] };
      if (req.path === "/traded") return { body: { user: wallet, traded: 42 } };
      return {
        body: [
          {
            token: "77",
            holders: [
              { proxyWallet: wallet, asset: "77", amount: 5000, outcomeIndex: 0, name: "whale", pseudonym: "Big-Fish" },
            ],
          },
        ],
      };
    });
    expect(await client.value(wallet)).toBe(1234.56);
    expect(await client.traded(wallet)).toBe(42);
    const holders = await client.holders([`0x${"c".repeat(64)}`], 50);
    expect(holders[0]?.holders[0]?.amount).toBe(5000);
    expect(server.requests.at(-1)?.query.get("limit")).toBe("20");
  });
});

describe("PnlClient", () => {
  it("reads the lifetime curve oldest first, in micro-units", async () => {
    server = await startLoopback(() => ({
      body: [
        { t: 1_770_086_400, p: -12.5 },
        { t: 1_770_000_000, p: 3.1234565 },
      ],
    }));
    const client = new PnlClient(new VenueHttpClient({ name: "user-pnl", baseUrl: server.url, timeoutMs: 2_000 }));
    const curve = await client.curve("0xabc");
    expect(curve.points).toEqual([
      { timestamp: 1_770_000_000, pnlMicro: 3_123_457 },
      { timestamp: 1_770_086_400, pnlMicro: -12_500_000 },
    ]);
    expect(server.requests[0]?.path).toBe("/user-pnl");
    expect(Object.fromEntries(server.requests[0]?.query ?? [])).toEqual({
      user_address: "0xabc",
      interval: "all",
      fidelity: "1d",
    });
    expect(await client.lifetimePnlMicro("0xabc")).toBe(-12_500_000);
  });
});
