import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FUNDING_HUBS } from "../world/index.js";
import type { SimVenue } from "./index.js";
import type { TruthFundingGroup, TruthWallet } from "./informed-truth.js";
import { closeVenues, getJson, smallVenue } from "./testing/venues.js";

let venue: SimVenue;
let wallets: TruthWallet[];
let groups: Map<string, TruthFundingGroup>;

beforeAll(async () => {
  venue = await smallVenue({
    worldOptions: { seed: 5, end: Date.UTC(2026, 5, 1) / 1000, markets: 120, wallets: 800, fills: 15_000, days: 90 },
  });
  wallets = [];
  for (let url: string | null = `${venue.truthUrl}?limit=150`; url; ) {
    const page = (await getJson(url)).body as { next: number | null; wallets: TruthWallet[]; total: number };
    wallets.push(...page.wallets);
    url = page.next === null ? null : `${venue.truthUrl}?limit=150&offset=${page.next}`;
  }
  const answer = (await getJson(venue.truthUrl.replace(/archetypes$/, "funding-groups"))).body;
  groups = new Map((answer as { groups: TruthFundingGroup[] }).groups.map((g) => [g.id, g]));
});
afterAll(closeVenues);

const informed = (kind: string) => wallets.filter((w) => w.informed?.kind === kind);

describe("GET /truth/archetypes", () => {
  it("lists every wallet's archetype in wallet order, a page at a time", async () => {
    expect(venue.truthUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/truth\/archetypes$/);
    const first = (await getJson(venue.truthUrl)).body as Record<string, unknown>;
    expect(first).toMatchObject({ total: venue.world.wallets.length, offset: 0, limit: 1_000, next: null });
    expect(wallets.map((w) => [w.wallet, w.archetype])).toEqual(
      venue.world.wallets.map((w) => [w.proxyWallet, w.archetype]),
    );
    expect(wallets.filter((w) => w.informed === null).every((w) => w.decoy === null)).toBe(true);
  });

  it("gives each insider its market, side and funding group, whose funder ends its funder path", () => {
    const insiders = informed("insider");
    expect(insiders.length).toBeGreaterThanOrEqual(6);
    const markets = new Map(venue.world.markets.map((m) => [m.conditionId, m]));
    for (const w of insiders) {
      const bet = w.informed!;
      expect(w.archetype).toBe("insider");
      expect(w.decoy).toBeNull();
      expect(bet.side).toBe("BUY");
      expect(bet.won).toBe(true);
      expect(markets.get(bet.conditionId)!.truth).toBe(bet.outcomeIndex);
      expect(bet.outcome).toBe(bet.outcomeIndex === 0 ? "Yes" : "No");
      const group = groups.get(w.fundingGroup!)!;
      expect(group.kind).toBe("insider");
      expect(group.conditionId).toBe(bet.conditionId);
      expect(bet.funderPath.at(-1)).toBe(group.funder);
      expect(group.members.find((m) => m.wallet === w.wallet)?.path).toEqual(bet.funderPath);
      expect(bet.fundedAt!).toBeLessThan(bet.firstTs);
      expect(bet.lastTs).toBeLessThan(bet.tradingStop);
      expect(bet.usdMicro).toBeGreaterThan(0);
    }
  });

  it("names each decoy's kind, the axis on which it differs showing in its entry", () => {
    const hubs = new Set(FUNDING_HUBS.map((h) => h.address));
    for (const w of informed("fresh_loser"))
      expect([w.decoy, w.informed!.won, w.fundingGroup !== null]).toEqual(["fresh_loser", false, true]);
    for (const w of informed("hub_funded_fresh")) {
      expect([w.decoy, w.informed!.won, w.fundingGroup]).toEqual(["hub_funded_fresh", true, null]);
      expect(w.informed!.funderPath).toHaveLength(1);
      expect(hubs.has(w.informed!.funderPath[0]!)).toBe(true);
    }
    for (const w of informed("late_whale")) {
      expect([w.archetype, w.decoy, w.informed!.won, w.informed!.fundedAt]).toEqual([
        "whale",
        "late_whale",
        true,
        null,
      ]);
      expect(groups.get(w.fundingGroup!)!.kind).toBe("late_whale");
    }
    for (const kind of ["fresh_loser", "hub_funded_fresh", "late_whale"])
      expect(informed(kind).length, kind).toBeGreaterThan(0);
  });

  it("lists the hubs, answers 400 to a bad page, 404 to another path, and injects no fault", async () => {
    const base = venue.truthUrl.replace(/\/archetypes$/, "");
    expect((await getJson(`${base}/hubs`)).body).toEqual({ hubs: FUNDING_HUBS });
    expect((await getJson(`${venue.truthUrl}?limit=ten`)).status).toBe(400);
    expect((await getJson(`${venue.truthUrl}?offset=-1`)).status).toBe(400);
    expect((await getJson(`${base}/insiders`)).status).toBe(404);
    const failing = await smallVenue({ faults: { serverError: 1 } });
    expect((await getJson(`${failing.urls.gamma}/markets?limit=1`)).status).toBeGreaterThanOrEqual(500);
    expect((await getJson(`${failing.truthUrl}?limit=1`)).status).toBe(200);
  });
});
