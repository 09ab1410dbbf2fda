import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../config/index.js";
import { BUILT_IN_CITIES, checkCitiesFile, configuredCities, defineCities } from "./cities.js";
import { likePattern } from "./read-model.js";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function fileWith(content: string): string {
  const dir = mkdtempSync(join(tmpdir(), "pelagic-cities-"));
  dirs.push(dir);
  writeFileSync(join(dir, "cities.json"), content);
  return join(dir, "cities.json");
}

describe("monitored cities", () => {
  it("builds the venue's territory places in: points, and closed 33-point circles for polygons", () => {
    const cities = configuredCities(loadConfig({}).isw);
    expect(cities.map((c) => c.name)).toEqual(BUILT_IN_CITIES.map((c) => c.name));
    for (const s of cities.flatMap((c) => c.subscriptions)) {
      if (s.checkType === "single") expect([s.geometry.length, s.bufferAdvanceM]).toEqual([1, 200]);
      else expect([s.geometry.length, s.geometry[0]]).toEqual([33, s.geometry[32]]);
      expect(s.marketSlugPattern).toMatch(/^will-russia-(capture|capture-all-of|enter)-[a-z-]+-by-\*$/);
    }
  });

  it("replaces them with ISW_CITIES_FILE, closing rings, and refuses a bad file at start-up naming the setting", () => {
    const good = fileWith(
      JSON.stringify([
        {
          name: "Vuhledar",
          lon: 37.25,
          lat: 47.78,
          subscriptions: [
            {
              label: "All of Vuhledar",
              check_type: "entirety",
              polygon: [
                [37.2, 47.7],
                [37.3, 47.7],
                [37.3, 47.8],
              ],
              market_slug_pattern: "will-russia-capture-all-of-vuhledar-by-*",
            },
          ],
        },
      ]),
    );
    const [city] = configuredCities(loadConfig({ ISW_CITIES_FILE: good }).isw);
    expect(city!.subscriptions[0]!.geometry).toEqual([
      [37.2, 47.7],
      [37.3, 47.7],
      [37.3, 47.8],
      [37.2, 47.7],
    ]);
    const bad = [
      ["not json", "cannot read"],
      [JSON.stringify([{ name: "X", lon: 1, lat: 91, subscriptions: [] }]), "/0/lat"],
      [
        JSON.stringify([
          {
            name: "X",
            lon: 1,
            lat: 2,
            subscriptions: [{ label: "a", check_type: "enter", market_slug_pattern: "x-*" }],
          },
        ]),
        "needs a polygon or a radius_m",
      ],
      [
        JSON.stringify([
          {
            name: "X",
            lon: 1,
            lat: 2,
            subscriptions: [{ label: "a", check_type: "single", radius_m: 100, market_slug_pattern: "x-*" }],
          },
        ]),
        "is a point",
      ],
      [
        JSON.stringify([
          { name: "X", lon: 1, lat: 2, subscriptions: [] },
          { name: "x", lon: 1, lat: 2, subscriptions: [] },
        ]),
        "listed twice",
      ],
    ];
    for (const [content, message] of bad)
      expect(() => checkCitiesFile(loadConfig({ ISW_CITIES_FILE: fileWith(content!) }).isw), content).toThrow(
        new RegExp(`ISW_CITIES_FILE.*${message}`),
      );
    expect(() =>
      defineCities(
        [
          {
            name: "X",
            lon: 1,
            lat: 2,
            subscriptions: [{ label: "a", check_type: "single", market_slug_pattern: "x-*", colour: "red" }],
          },
        ],
        200,
      ),
    ).toThrow("ISW_CITIES_FILE");
  });

  it("matches slug patterns with * only: the other characters of LIKE stand for themselves", () => {
    expect(likePattern("will-russia-enter-%_x-by-*")).toBe("will-russia-enter-\\%\\_x-by-%");
  });
});
