import { describe, expect, it } from "vitest";
import { LAYER_GRID_DEG, coarsenRing } from "./layer-shapes.js";

const ring = (points: number[][]) => Float64Array.from(points.flat());

describe("coarsenRing", () => {
  it("snaps to the grid, drops points that fall in the cell before them, and stays closed", () => {
    // A square of 0.02° with a wobble of 0.001° on its first side (within one 0.005° cell).
    const out = coarsenRing(
      ring([
        [37, 48],
        [37.001, 48.0005],
        [37.02, 48],
        [37.02, 48.02],
        [37, 48.02],
        [37, 48],
      ]),
    );
    expect(LAYER_GRID_DEG).toBe(0.005);
    expect(out).toEqual([
      [37, 48],
      [37.02, 48],
      [37.02, 48.02],
      [37, 48.02],
      [37, 48],
    ]);
  });

  it("drops a ring smaller than a cell", () => {
    expect(
      coarsenRing(
        ring([
          [37, 48],
          [37.001, 48],
          [37.001, 48.001],
          [37, 48],
        ]),
      ),
    ).toBeNull();
  });
});
