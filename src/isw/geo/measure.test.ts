/**
 * Distances, coverage and threat levels on the twelve real snapshots (assets/isw), each checked against an
 * independent computation: turf's own point-to-polygon distance and clipping, and a grid of point-in-polygon
 * samples, over the raw GeoJSON features (not this module's polygons, index or clipper).
 */
import area from "@turf/area";
import circle from "@turf/circle";
import { featureCollection, multiPolygon, polygon } from "@turf/helpers";
import intersect from "@turf/intersect";
import type { MultiPolygon, Polygon } from "geojson";
import { beforeAll, describe, expect, it } from "vitest";
import { readSnapshots } from "../../sim/isw-snapshots.js";
import { threatOf, thresholdsOf } from "../threat.js";
import { loadConfig } from "../../config/index.js";
import { measurePoint, measurePolygon, type LonLat } from "./measure.js";
import { polygonsOfFeatures } from "./polygons.js";
import { Shading } from "./shading.js";
import { clipTo, sampledCoverage, turfDistance, type Area } from "../testing/turf-reference.js";

const days = readSnapshots();
const shadings: Shading[] = [];
const rawFeatures: Area[][] = [];
const options = { searchRadiusM: 12_000, layers: null };

beforeAll(() => {
  for (const day of days) {
    const features = day.collection().features.filter((f) => f.geometry);
    rawFeatures.push(features as unknown as Area[]);
    shadings.push(
      new Shading(
        features.flatMap((f) => polygonsOfFeatures([f]).map((p) => ({ ...p, layer: f.properties?.layer ?? "" }))),
      ),
    );
  }
});

const circleRing = (center: LonLat, radiusM: number): LonLat[] =>
  (
    circle([center[0], center[1]], radiusM / 1000, { units: "kilometers", steps: 32 }).geometry.coordinates[0] as [
      number,
      number,
    ][]
  ).map(([x, y]) => [x, y] as const);

describe("distances on the real snapshots", () => {
  it("follows Bakhmut's western outskirts across the twelve days as turf measures them", () => {
    const outskirts: LonLat = [37.93, 48.59];
    const ours = shadings.map((s) => measurePoint(s, outskirts, options).closestDistanceM!);
    const theirs = rawFeatures.map((f) => turfDistance(f, outskirts).distance);
    for (let d = 0; d < days.length; d++) expect(ours[d]).toBeCloseTo(theirs[d]!, -1);
    // The front line came closer twice in those days (2.6 km, then 1.75 km on May 21, then 1.4 km on May 26).
    expect(theirs[0]).toBeGreaterThan(2_500);
    expect(theirs[1]).toBeLessThan(1_800);
    expect(theirs[6]).toBeLessThan(1_450);
  });

  it("measures points inside the shading as inside, with the distance to the boundary signed negative", () => {
    const centre: LonLat = [37.999, 48.595];
    for (let d = 0; d < days.length; d++) {
      const m = measurePoint(shadings[d]!, centre, options);
      const check = turfDistance(rawFeatures[d]!, centre);
      expect(check.inside).toBe(true);
      expect(m.closestDistanceM).toBe(0);
      expect(m.signedDistanceM!).toBeLessThan(0);
    }
  });

  it("agrees with turf on the 44,000-vertex control ring far from any advance (the Zaporizhzhia front)", () => {
    const orikhiv: LonLat = [35.78, 47.57];
    const expected = turfDistance(rawFeatures[0]!, orikhiv).distance;
    expect(expected).toBeGreaterThan(5_000);
    expect(measurePoint(shadings[0]!, orikhiv, options).closestDistanceM!).toBeCloseTo(expected, -1);
  });
});

describe("coverage on the real snapshots", () => {
  it("matches turf's clipped intersection and a grid of samples for a circle over Bakhmut", () => {
    const ring = circleRing([37.999, 48.595], 3_400);
    for (const d of [0, 6]) {
      const ours = measurePolygon(shadings[d]!, ring, options).coverage!;
      const box = [37.9, 48.56, 38.1, 48.63] as [number, number, number, number];
      const pieces = rawFeatures[d]!.flatMap((f) => clipTo(f, box) ?? []);
      const coords = pieces.flatMap((f) => (f.geometry as MultiPolygon).coordinates);
      const place = polygon([ring.map(([x, y]) => [x, y])]);
      const shared = intersect(featureCollection<Polygon | MultiPolygon>([place, multiPolygon(coords)]));
      expect(ours).toBeCloseTo(area(shared!) / area(place), 4);
      expect(Math.abs(ours - sampledCoverage(rawFeatures[d]!, ring))).toBeLessThan(0.01);
    }
  });

  it("is 0 with the distance to the shading for a polygon clear of it, and 1 for one deep inside", () => {
    const chasivYar = circleRing([37.84, 48.59], 2_500);
    const clear = measurePolygon(shadings[0]!, chasivYar, options);
    expect(clear.coverage).toBe(0);
    // The nearest shading is 7.4 km from the town's centre (turf, above), so about 7.4 - 2.5 km from its edge.
    const fromCentre = turfDistance(rawFeatures[0]!, [37.84, 48.59]).distance;
    expect(clear.closestDistanceM!).toBeGreaterThan(fromCentre - 2_500 - 50);
    expect(clear.closestDistanceM!).toBeLessThan(fromCentre - 2_500 + 200);
    const deep = measurePolygon(shadings[0]!, circleRing([38.3, 48.3], 1_000), options);
    expect(deep.coverage).toBe(1);
    expect(deep.closestDistanceM).toBe(0);
  });
});

describe("threat levels of hand-checked places", () => {
  const thresholds = thresholdsOf(loadConfig({}).isw);
  const single = { checkType: "single" as const, bufferAdvanceM: 200 };

  it("ranks points by their turf distance: captured, high, medium and low places on May 20 and 21", () => {
    const cases: Array<{ at: LonLat; day: number }> = [
      { at: [37.96, 48.59], day: 1 },
      { at: [37.95, 48.59], day: 0 },
      { at: [37.95, 48.59], day: 1 },
      { at: [37.92, 48.59], day: 1 },
      { at: [37.91, 48.59], day: 0 },
    ];
    for (const { at, day } of cases) {
      const { distance, inside } = turfDistance(rawFeatures[day]!, at);
      const expected =
        inside || distance <= 200
          ? "CRITICAL"
          : distance <= 1_000
            ? "HIGH"
            : distance <= 3_000
              ? "MEDIUM"
              : distance <= 10_000
                ? "LOW"
                : "SAFE";
      expect(threatOf(single, measurePoint(shadings[day]!, at, options), thresholds), `${at} day ${day}`).toBe(
        expected,
      );
    }
  });

  it("grades an entirety polygon by coverage: HIGH at 91% of Bakhmut, CRITICAL from 98%", () => {
    const entirety = { checkType: "entirety" as const, bufferAdvanceM: 0 };
    const ring = circleRing([37.999, 48.595], 3_400);
    const levels = shadings.map((s) => threatOf(entirety, measurePolygon(s, ring, options), thresholds));
    const coverage = [0, 6].map((d) => sampledCoverage(rawFeatures[d]!, ring));
    expect(coverage[0]).toBeGreaterThan(0.88);
    expect(coverage[0]).toBeLessThan(0.94);
    expect(coverage[1]).toBeGreaterThan(0.975);
    expect(levels.slice(0, 6)).toEqual(Array(6).fill("HIGH"));
    expect(levels.slice(6)).toEqual(Array(6).fill("CRITICAL"));
  });
});

describe("fingerprints", () => {
  it("change only for places near an edit of the 44,000-vertex ring", () => {
    const features = days[0]!.collection().features.filter((f) => f.geometry);
    const layered = (fs: typeof features) =>
      new Shading(fs.flatMap((f) => polygonsOfFeatures([f]).map((p) => ({ ...p, layer: "control" }))));
    const before = layered(features);
    const biggest = features.reduce((a, f) =>
      JSON.stringify(f.geometry).length > JSON.stringify(a.geometry).length ? f : a,
    );
    const outer = (biggest.geometry as Polygon).coordinates[0]!;
    const nearBakhmut = outer.reduce(
      (best, p, i) =>
        Math.hypot(p[0]! - 37.95, p[1]! - 48.59) < Math.hypot(outer[best]![0]! - 37.95, outer[best]![1]! - 48.59)
          ? i
          : best,
      0,
    );
    const edited = outer.map((p, i) => (i === nearBakhmut ? [p[0]! + 0.001, p[1]!] : p));
    const after = layered(
      features.map((f) =>
        f === biggest
          ? {
              ...f,
              geometry: {
                type: "Polygon",
                coordinates: [edited, ...(biggest.geometry as Polygon).coordinates.slice(1)],
              },
            }
          : f,
      ),
    );
    const fingerprint = (s: Shading, at: LonLat) => measurePoint(s, at, options).fingerprint;
    expect(fingerprint(after, [37.95, 48.59])).not.toBe(fingerprint(before, [37.95, 48.59]));
    expect(fingerprint(after, [35.78, 47.57])).toBe(fingerprint(before, [35.78, 47.57]));
  });
});
