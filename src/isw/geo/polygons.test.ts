import { describe, expect, it } from "vitest";
import { contentHash, decodePolygon, encodePolygon, polygonsOfGeometry, ringSignedArea2 } from "./polygons.js";

const square = [
  [0, 0],
  [1, 0],
  [1, 1],
  [0, 1],
  [0, 0],
];
const clockwise = [...square].reverse();

describe("territory polygons", () => {
  it("drops z, repeated points and null or non-polygon geometries, and closes rings", () => {
    expect(polygonsOfGeometry(null)).toEqual([]);
    expect(polygonsOfGeometry({ type: "Point", coordinates: [1, 2] })).toEqual([]);
    const [p] = polygonsOfGeometry({
      type: "Polygon",
      coordinates: [
        [
          [0, 0, 5],
          [1, 0, 5],
          [1, 0, 5],
          [1, 1, 5],
          [0, 1, 5],
        ],
      ],
    });
    expect(Array.from(p!.rings[0]!)).toEqual([0, 0, 1, 0, 1, 1, 0, 1, 0, 0]);
    expect(p!.bbox).toEqual([0, 0, 1, 1]);
  });

  it("winds outer rings counter-clockwise and holes clockwise, as RFC 7946 says", () => {
    const hole = [
      [0.2, 0.2],
      [0.4, 0.2],
      [0.4, 0.4],
      [0.2, 0.2],
    ];
    const [p] = polygonsOfGeometry({ type: "Polygon", coordinates: [clockwise, hole] });
    expect(ringSignedArea2(p!.rings[0]!)).toBeGreaterThan(0);
    expect(ringSignedArea2(p!.rings[1]!)).toBeLessThan(0);
  });

  it("takes each member of a MultiPolygon and skips degenerate rings", () => {
    const line = [
      [0, 0],
      [1, 1],
      [0, 0],
    ];
    expect(
      polygonsOfGeometry({
        type: "MultiPolygon",
        coordinates: [[square], [line], [square.map(([x, y]) => [x! + 5, y!])]],
      }),
    ).toHaveLength(2);
  });

  it("hashes content regardless of feature order or winding, and stores polygons exactly", () => {
    const a = polygonsOfGeometry({
      type: "MultiPolygon",
      coordinates: [[square], [square.map(([x, y]) => [x! + 5, y!])]],
    });
    const b = polygonsOfGeometry({
      type: "MultiPolygon",
      coordinates: [[square.map(([x, y]) => [x! + 5, y!])], [clockwise]],
    });
    expect(contentHash(a)).toBe(contentHash(b));
    expect(contentHash(a)).not.toBe(contentHash(a.slice(1)));
    const odd = polygonsOfGeometry({
      type: "Polygon",
      coordinates: [
        [
          [0.1, 0.2],
          [1 / 3, 0],
          [1, 1e-12],
          [0.1, 0.2],
        ],
      ],
    })[0]!;
    const back = decodePolygon(encodePolygon(odd).subarray(0));
    expect(back.rings.map((r) => Array.from(r))).toEqual(odd.rings.map((r) => Array.from(r)));
  });
});
