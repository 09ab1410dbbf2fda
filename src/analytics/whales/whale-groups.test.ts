/**
 * The walk of ranked whale groups against a full grouping written here: random groups and matched sets, every limit;
 * and how far it reads when every whale is matched (a busy wallet): the first `limit` groups, not all of them.
 */
import { describe, expect, it } from "vitest";
import { rankGroups, topMatchedGroups, type WhaleGroup } from "./whale-groups.js";

/** A small deterministic generator (mulberry32). */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Member = { conditionId: string; outcomeIndex: number; whale: number; figure: number };

function world(seed: number, whales: number, markets: number) {
  const r = random(seed);
  const members = new Map<string, Member[]>();
  for (let m = 0; m < markets; m++) {
    const conditionId = `0x${m.toString(16).padStart(4, "0")}`;
    for (const outcomeIndex of [0, 1]) {
      const share = r() * 0.6;
      // Figures on a coarse grid, so that ties in count and sum happen and the market order decides.
      const rows = [...Array(whales).keys()]
        .filter(() => r() < share)
        .map((whale) => ({ conditionId, outcomeIndex, whale, figure: Math.round(r() * 8 - 2) }));
      if (rows.length > 0) members.set(`${conditionId}/${outcomeIndex}`, rows.reverse());
    }
  }
  return { r, members };
}

/** Every group restricted to the matched whales, filtered and sorted, then cut. */
function grouped(members: Map<string, Member[]>, matched: Set<number>, min: number, skip: Set<string>) {
  return [...members.entries()]
    .filter(([key]) => !skip.has(key))
    .map(([, rows]) => rows.filter((m) => matched.has(m.whale)).sort((a, b) => a.whale - b.whale))
    .filter((rows) => rows.length >= min)
    .map((rows) => ({ rows, sum: rows.reduce((a, m) => a + m.figure, 0) }))
    .sort(
      (a, b) =>
        b.rows.length - a.rows.length ||
        b.sum - a.sum ||
        a.rows[0]!.conditionId.localeCompare(b.rows[0]!.conditionId) ||
        a.rows[0]!.outcomeIndex - b.rows[0]!.outcomeIndex,
    )
    .map(({ rows, sum }) => ({
      key: `${rows[0]!.conditionId}/${rows[0]!.outcomeIndex}`,
      whales: rows.map((m) => m.whale),
      sum,
    }));
}

const served = (top: ReturnType<typeof topMatchedGroups>) =>
  top.map(({ group, whales, sum }) => ({ key: `${group.condition_id}/${group.outcome_index}`, whales, sum }));

describe("ranked whale groups", () => {
  it("walk to the same first rows as grouping every matched whale's positions", () => {
    for (let seed = 1; seed <= 30; seed++) {
      const { r, members } = world(seed, 40, 60);
      const ranked = rankGroups(members);
      const marks = new Uint8Array(40);
      const matched = new Set<number>();
      const density = r();
      for (let w = 0; w < 40; w++)
        if (r() < density) {
          marks[w] = 1;
          matched.add(w);
        }
      const skip = new Set([...members.keys()].filter(() => r() < 0.2));
      const want = grouped(members, matched, 3, skip);
      for (const limit of [1, 2, 3, 5, 10, 50, 200]) {
        const got = topMatchedGroups(ranked, marks, 3, limit, (g: WhaleGroup) =>
          skip.has(`${g.condition_id}/${g.outcome_index}`),
        );
        expect(served(got), `seed ${seed} limit ${limit}`).toEqual(want.slice(0, limit));
      }
    }
  });

  it("reads only the first groups when every whale is matched", () => {
    const { members } = world(7, 200, 300);
    const ranked = rankGroups(members);
    const cost = { groups: 0, rows: 0 };
    const top = topMatchedGroups(ranked, new Uint8Array(200).fill(1), 3, 5, () => false, cost);
    expect(top.map((m) => m.group)).toEqual(ranked.slice(0, 5));
    // Groups of the 5th one's size may tie it; none smaller is read.
    const fifth = ranked[4]!.whales.length;
    expect(cost.groups).toBe(ranked.filter((g) => g.whales.length >= fifth).length);
    expect(cost.groups).toBeLessThan(ranked.length / 4);
  });
});
