import { afterEach, describe, expect, it } from "vitest";
import { GammaClient } from "./gamma.js";
import { VenueHttpClient } from "./http.js";
import { collectPages } from "./paging.js";
import { VenueShapeError } from "./shapes/shape.js";
import { fakeTime } from "./testing/fake-time.js";
import { gammaEvent, gammaMarket } from "./testing/fixtures.js";
import { startLoopback, type Loopback, type LoopbackHandler } from "./testing/loopback.js";

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function gamma(handler: LoopbackHandler) {
  server = await startLoopback(handler);
  const time = fakeTime();
  const http = new VenueHttpClient({
    name: "gamma",
    baseUrl: server.url,
    timeoutMs: 2_000,
    clock: time.clock,
    sleep: time.sleep,
    random: () => 0,
  });
  return { client: new GammaClient(http), time, server };
}

const open = Array.from({ length: 7 }, (_, i) => gammaMarket(i + 1));
const closed = [gammaMarket(50, { closed: true, umaResolutionStatus: "resolved", outcomePrices: '["1", "0"]' })];

/** Gamma's /markets: closed markets only with closed=true; condition_ids repeated. */
const marketsHandler: LoopbackHandler = (req) => {
  const wantClosed = req.query.get("closed") === "true";
  const ids = req.query.getAll("condition_ids");
  let rows = wantClosed ? closed : open;
  if (ids.length) rows = rows.filter((m) => ids.includes(m.conditionId));
  const offset = Number(req.query.get("offset") ?? 0);
  return { body: rows.slice(offset, offset + Number(req.query.get("limit"))) };
};

describe("GammaClient markets", () => {
  it("pages /markets by offset until a short page", async () => {
    const { client, server } = await gamma(marketsHandler);
    const { rows, truncated } = await collectPages(client.markets({ order: "id", ascending: true }, { pageSize: 3 }));
    expect(rows.map((m) => m.id)).toEqual(["1", "2", "3", "4", "5", "6", "7"]);
    expect(truncated).toBe(false);
    expect(server.requests.map((r) => [r.query.get("offset"), r.query.get("limit"), r.query.get("order")])).toEqual([
      ["0", "3", "id"],
      ["3", "3", "id"],
      ["6", "3", "id"],
    ]);
  });

  it("looks markets up by condition id in both states, with repeated parameters", async () => {
    const { client, server } = await gamma(marketsHandler);
    const ids = [open[1]?.conditionId ?? "", closed[0]?.conditionId ?? "", `0x${"f".repeat(64)}`];
    const { rows } = await client.marketsByConditionIds(ids, { chunk: 2 });
    expect(rows.map((m) => [m.id, m.closed])).toEqual([
      ["2", false],
      ["50", true],
    ]);
    expect(server.requests.map((r) => [r.query.getAll("condition_ids").length, r.query.get("closed")])).toEqual([
      [2, "false"],
      [2, "true"],
      [1, "false"],
      [1, "true"],
    ]);
  });

  it("skips a market whose JSON-encoded fields are real arrays, keeping the rest of the page", async () => {
    const { client } = await gamma(() => ({ body: [gammaMarket(1), { ...gammaMarket(2), outcomes: ["Yes", "No"] }] }));
    const page = await client.marketsPage({ limit: 10 });
    expect(page.rows.map((m) => m.id)).toEqual(["1"]);
    expect(page.rejected[0]?.issues.some((i) => i.path === "/outcomes")).toBe(true);
  });

  it("retries a 502 from Gamma", async () => {
    let calls = 0;
    const { client, time } = await gamma((req) =>
      ++calls === 1 ? { status: 502, text: "Bad Gateway" } : marketsHandler(req),
    );
    const page = await client.marketsPage({ limit: 2 });
    expect(page.rows).toHaveLength(2);
    expect(time.sleeps).toHaveLength(1);
  });
});

describe("GammaClient events", () => {
  it("follows next_cursor through /events/keyset with after_cursor", async () => {
    const pages: Record<string, { events: unknown[]; next_cursor?: string | null }> = {
      start: {
        events: [gammaEvent(1, [gammaMarket(1)]), gammaEvent(2, [gammaMarket(2), gammaMarket(3)])],
        next_cursor: "c2",
      },
      c2: { events: [gammaEvent(3, [])], next_cursor: "c3" },
      c3: { events: [gammaEvent(4, [])], next_cursor: "" },
    };
    const { client, server } = await gamma((req) => ({ body: pages[req.query.get("after_cursor") ?? "start"] }));
    const items = [];
    for await (const item of client.events({ closed: false }, { pageSize: 2_000 })) items.push(item);
    expect(items.map((i) => (i.type === "page" ? i.rows.map((e) => e.id) : i))).toEqual([
      ["1", "2"],
      ["3"],
      ["4"],
      { type: "end", rowCount: 4, lastCursor: "c3" },
    ]);
    expect(
      server.requests.map((r) => [r.path, r.query.get("after_cursor"), r.query.get("limit"), r.query.get("offset")]),
    ).toEqual([
      ["/events/keyset", null, "500", null],
      ["/events/keyset", "c2", "500", null],
      ["/events/keyset", "c3", "500", null],
    ]);
  });

  it("refuses a cursor that does not advance instead of looping", async () => {
    const { client } = await gamma(() => ({ body: { events: [gammaEvent(1, [])], next_cursor: "same" } }));
    await expect(collectPages(client.events({}, { startCursor: "same" }))).rejects.toThrow(VenueShapeError);
  });
});
