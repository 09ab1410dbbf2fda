import { describe, expect, it } from "vitest";
import { loadConfig } from "../config/index.js";
import type { Measurement } from "./geo/measure.js";
import { crossings, threatOf, thresholdsOf, THREAT_LEVELS } from "./threat.js";

const t = thresholdsOf(loadConfig({}).isw);
const point = (signed: number): Measurement => ({
  coverage: null,
  closestDistanceM: Math.max(0, signed),
  signedDistanceM: signed,
  fingerprint: "",
});
const area = (coverage: number, distance: number): Measurement => ({
  coverage,
  closestDistanceM: coverage > 0 ? 0 : distance,
  signedDistanceM: null,
  fingerprint: "",
});

describe("threat levels (defaults: 1, 3 and 10 km; coverage 0.2, 0.5, 0.98)", () => {
  it("grades a point by distance, CRITICAL within its buffer", () => {
    const single = { checkType: "single" as const, bufferAdvanceM: 200 };
    expect([-50, 150, 201, 1_000, 1_001, 3_000, 9_999, 10_001].map((d) => threatOf(single, point(d), t))).toEqual([
      "CRITICAL",
      "CRITICAL",
      "HIGH",
      "HIGH",
      "MEDIUM",
      "MEDIUM",
      "LOW",
      "SAFE",
    ]);
  });

  it("grades an enter polygon by distance, CRITICAL with any area shaded", () => {
    const enter = { checkType: "enter" as const, bufferAdvanceM: 0 };
    expect([area(0.001, 0), area(0, 0), area(0, 2_500), area(0, 20_000)].map((m) => threatOf(enter, m, t))).toEqual([
      "CRITICAL",
      "HIGH",
      "MEDIUM",
      "SAFE",
    ]);
  });

  it("grades an entirety polygon by coverage, LOW when merely near", () => {
    const entirety = { checkType: "entirety" as const, bufferAdvanceM: 0 };
    expect(
      [area(0.98, 0), area(0.979, 0), area(0.5, 0), area(0.2, 0), area(0.01, 0), area(0, 500), area(0, 10_001)].map(
        (m) => threatOf(entirety, m, t),
      ),
    ).toEqual(["CRITICAL", "HIGH", "HIGH", "MEDIUM", "LOW", "LOW", "SAFE"]);
  });
});

describe("crossings", () => {
  it("emits nothing for a baseline or an unchanged level", () => {
    expect(crossings(null, "CRITICAL")).toEqual([]);
    expect(crossings("HIGH", "HIGH")).toEqual([]);
  });

  it("emits the new level on a rise, CAPTURED with CRITICAL, and THREAT_REDUCED or MAP_ROLLBACK on a fall", () => {
    expect(crossings("SAFE", "HIGH").map((c) => c.eventType)).toEqual(["THREAT_HIGH"]);
    expect(crossings("MEDIUM", "CRITICAL").map((c) => c.eventType)).toEqual(["THREAT_CRITICAL", "CAPTURED"]);
    expect(crossings("HIGH", "LOW").map((c) => c.eventType)).toEqual(["THREAT_REDUCED"]);
    expect(crossings("CRITICAL", "MEDIUM").map((c) => [c.eventType, c.severity, c.previous])).toEqual([
      ["THREAT_REDUCED", "MEDIUM", "CRITICAL"],
      ["MAP_ROLLBACK", "MEDIUM", "CRITICAL"],
    ]);
    for (const from of THREAT_LEVELS)
      for (const to of THREAT_LEVELS) for (const c of crossings(from, to)) expect(c.severity).toBe(to);
  });
});
