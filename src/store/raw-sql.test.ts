import { describe, expect, it } from "vitest";
import { inTimeSlices, keysetPages } from "./raw-sql.js";

describe("keysetPages", () => {
  const keys = ["a", "b", "c", "d", "e", "f"];
  const read = (size: number, asked: string[]) => async (after: string) => {
    asked.push(after);
    return keys.filter((k) => k > after).slice(0, size);
  };
  const walk = async (size: number) => {
    const asked: string[] = [];
    const pages: string[][] = [];
    for await (const page of keysetPages(size, read(size, asked), (k) => k)) pages.push(page);
    return { pages, asked };
  };

  it("walks every row once, each page after the last key of the one before", async () => {
    expect(await walk(4)).toEqual({
      pages: [
        ["a", "b", "c", "d"],
        ["e", "f"],
      ],
      asked: ["", "d"],
    });
  });

  it("stops on an empty page after a full last one, yielding no empty page", async () => {
    expect(await walk(3)).toEqual({
      pages: [
        ["a", "b", "c"],
        ["d", "e", "f"],
      ],
      asked: ["", "c", "f"],
    });
  });
});

describe("inTimeSlices", () => {
  it("covers (after, upTo] in consecutive slices, the last one cut at upTo", async () => {
    const slices: Array<[number, number]> = [];
    await inTimeSlices(100, 350, 100, async (after, upTo) => (slices.push([after, upTo]), []));
    expect(slices).toEqual([
      [100, 200],
      [200, 300],
      [300, 350],
    ]);
  });
});
