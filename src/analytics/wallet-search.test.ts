import { describe, expect, it } from "vitest";
import { searchEntriesOf, searchEntries } from "./wallet-search.js";

const addr = (hex: string) => `0x${hex.padEnd(40, "0")}`;

describe("searchEntries", () => {
  const profiles = [
    { address: addr("aa1"), name: "Whale Alpha", pseudonym: "calm-otter" },
    { address: addr("aa2"), name: null, pseudonym: "alpha-fox" },
    { address: addr("ab3"), name: "0xAA fan", pseudonym: "quiet-lake" },
    { address: addr("b04"), name: "beta", pseudonym: null },
  ];
  const pnl = new Map([
    [addr("aa1"), 10],
    [addr("aa2"), 500],
    [addr("ab3"), -5],
    [addr("aa9"), 1_000], // a trader without a profile
  ]);
  const entries = searchEntriesOf(profiles, pnl);
  const search = (q: string, max = 20) => searchEntries(entries, q, max).map((r) => `${r.address.slice(0, 5)} ${r.source} ${r.name}`);

  it("ranks an exact address, then name or pseudonym prefixes, then the rest, each by total P&L", () => {
    expect(search("ALPHA")).toEqual(["0xaa2 profile alpha-fox", "0xaa1 profile Whale Alpha"]);
    expect(search(addr("aa1"))).toEqual(["0xaa1 profile Whale Alpha"]);
    // By address prefix (profiles and traders) and by a name holding it ("0xAA fan" starts with it: rank 1).
    expect(search("0xaa")).toEqual(["0xab3 profile 0xAA fan", "0xaa9 traders null", "0xaa2 profile alpha-fox", "0xaa1 profile Whale Alpha"]);
    expect(search("0xaa", 2)).toEqual(["0xab3 profile 0xAA fan", "0xaa9 traders null"]);
    expect(search("otter")).toEqual(["0xaa1 profile Whale Alpha"]);
    expect(search("  ")).toEqual([]);
    expect(search("zzz")).toEqual([]);
  });

  it("walks the P&L order when an address prefix matches many wallets", () => {
    const many = Array.from({ length: 3_000 }, (_, i) => [addr(`c${i.toString(16).padStart(4, "0")}`), i] as const);
    const big = searchEntriesOf([], new Map(many));
    expect(searchEntries(big, "0xc", 3).map((r) => r.address)).toEqual([addr("c0bb7"), addr("c0bb6"), addr("c0bb5")]);
  });
});
