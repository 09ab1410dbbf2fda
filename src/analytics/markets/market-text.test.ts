import { describe, expect, it } from "vitest";
import { MarketTextIndex } from "./market-text.js";

describe("MarketTextIndex", () => {
  it("gives a superset of the markets whose text holds every word, also after texts change", () => {
    let seed = 5;
    const random = () => (seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647;
    const vocabulary = [
      "will",
      "trump",
      "win",
      "bitcoin",
      "reach",
      "100k",
      "by",
      "june",
      "élection",
      "u.s.",
      "fed",
      "rate-cut",
      "nba",
      "finals",
    ];
    const phrase = (n: number) =>
      Array.from({ length: n }, () => vocabulary[Math.floor(random() * vocabulary.length)]!).join(" ");
    const texts = new Map(Array.from({ length: 200 }, (_, i) => [`0x${i}`, phrase(6)]));
    const index = new MarketTextIndex();
    for (const [id, text] of texts) index.add(id, text);
    const older = new Map(texts);
    for (const id of [...texts.keys()].slice(0, 20)) {
      texts.set(id, phrase(5));
      index.add(id, texts.get(id)!);
    }
    for (let n = 0; n < 300; n++) {
      const words = phrase(1 + Math.floor(random() * 2))
        .split(" ")
        .map((w) => w.slice(Math.floor(random() * 2)));
      const candidates = index.candidates(words);
      for (const current of [texts, older]) {
        const matches = [...current].filter(([, text]) => words.every((w) => text.includes(w))).map(([id]) => id);
        if (candidates === undefined) expect(words.every((w) => w.length < 3)).toBe(true);
        else
          for (const id of matches) expect(candidates.has(id), `${words.join(" ")} in ${current.get(id)}`).toBe(true);
      }
    }
    expect(index.candidates(["zzz"])?.size).toBe(0);
    expect(index.candidates(["bitcoin"])!.size).toBeLessThan(200);
  });
});
