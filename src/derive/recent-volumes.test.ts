import { describe, expect, it } from "vitest";
import type { EntryType } from "../store/schema.js";
import { RecentVolumes } from "./recent-volumes.js";

interface Fill {
  wallet: string;
  ts: number;
  role: "maker" | "taker" | null;
  entryType: EntryType | null;
  usd: number;
}

const WINDOW = 30 * 86_400;

/** The sums straight from the fills: ts in (end - window, end]. */
function expected(fills: readonly Fill[], wallet: string, end: number) {
  const inside = fills.filter((f) => f.wallet === wallet && f.ts > end - WINDOW && f.ts <= end);
  const sum = (keep: (f: Fill) => boolean) => inside.filter(keep).reduce((s, f) => s + f.usd, 0);
  return {
    mint: sum((f) => f.entryType === "MINT"),
    merge: sum((f) => f.entryType === "MERGE"),
    maker: sum((f) => f.role === "maker"),
    total: sum(() => true),
  };
}

describe("RecentVolumes", () => {
  it("sums each wallet's fills within the window ending at the last advance, whatever order they come in", () => {
    let seed = 11;
    const random = () => (seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647;
    const wallets = ["0xa", "0xb", "0xc"];
    const start = 1_700_000_000;
    const fills: Fill[] = Array.from({ length: 3_000 }, () => ({
      wallet: wallets[Math.floor(random() * wallets.length)]!,
      ts: start + Math.floor(random() * 90 * 86_400),
      role: random() < 0.5 ? "maker" : random() < 0.5 ? "taker" : null,
      entryType: random() < 0.3 ? "MINT" : random() < 0.3 ? "MERGE" : random() < 0.5 ? "COMPLEMENTARY" : null,
      usd: Math.floor(random() * 1e9),
    }));
    const volumes = new RecentVolumes(WINDOW);
    let end = start + 10 * 86_400;
    volumes.advance(end);
    let next = 0;
    // Fills come in batches, late ones among them; the window moves by uneven steps (an hour, then days).
    while (end < start + 100 * 86_400) {
      const batch = fills.slice(next, next + 97);
      next += batch.length;
      for (const f of batch) volumes.add(f.wallet, f.ts, f.role, f.entryType, f.usd);
      const seen = fills.slice(0, next);
      const before = new Map(wallets.map((w) => [w, volumes.of(w)]));
      const changed = new Set(volumes.advance((end += Math.floor(random() * 3 * 86_400) + 3_600)));
      for (const wallet of wallets) {
        expect(volumes.of(wallet), `${wallet} at ${end}`).toEqual(expected(seen, wallet, end));
        if (!changed.has(wallet)) expect(volumes.of(wallet)).toEqual(before.get(wallet));
      }
    }
  });

  it("reports the wallets whose sums changed, once", () => {
    const volumes = new RecentVolumes(WINDOW);
    volumes.advance(1_000_000);
    volumes.add("0xa", 999_000, "maker", "MINT", 5);
    volumes.add("0xb", 1_000_500, null, null, 7);
    expect(volumes.advance(1_000_000)).toEqual(["0xa"]);
    expect(volumes.of("0xb").total).toBe(0);
    expect(volumes.advance(1_001_000)).toEqual(["0xb"]);
    expect(volumes.advance(999_000 + WINDOW)).toEqual(["0xa"]);
    expect(volumes.of("0xa")).toEqual({ mint: 0, merge: 0, maker: 0, total: 0 });
    expect(volumes.of("0xb")).toEqual({ mint: 0, merge: 0, maker: 0, total: 7 });
  });
});
