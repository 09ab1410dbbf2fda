/**
 * A layer source over the repository's real daily snapshots (assets/isw), for tests and benches: `show(day)`
 * publishes a day as an update of the control and advance layers (both edit dates move, as ISW's daily update
 * moves them), so showing an earlier day again is an edit-back. Counts feature fetches, to tell a cheap probe
 * from one that downloaded the layers.
 */
import { readSnapshots, type Snapshot } from "../../sim/isw-snapshots.js";
import type { FeatureLike, LayerSource } from "../layers.js";

/** The two layers' names inside the snapshot files. */
export const SNAPSHOT_LAYERS = {
  control: "VIEW_RussiaCoTinUkraine_V3",
  advance: "MDS_AssessedRussianAdvanceInUkraine_view",
} as const;

/** Layer paths the replay answers to (any settings-like paths do; these are the defaults' shape). */
export const REPLAY_PATHS = { control: "control/FeatureServer/0", advance: "advance/FeatureServer/0" } as const;

export class SnapshotReplay implements LayerSource {
  readonly days: readonly Snapshot[];
  fetches = 0;
  private day = 0;
  private readonly edits = { control: 0, advance: 0 };
  private readonly byDay = new Map<number, Record<keyof typeof SNAPSHOT_LAYERS, FeatureLike[]>>();

  constructor(
    days: readonly Snapshot[] = readSnapshots(),
    private readonly firstEditMs = Date.UTC(2023, 4, 20, 18),
  ) {
    this.days = days;
  }

  /** Publishes a day (by index) as a new edit of the given layers (both by default). */
  show(day: number, layers: ReadonlyArray<keyof typeof SNAPSHOT_LAYERS> = ["control", "advance"]): void {
    if (day < 0 || day >= this.days.length) throw new Error(`no snapshot ${day}`);
    this.day = day;
    for (const layer of layers) this.edits[layer] += 1;
  }

  private layerOf(path: string): keyof typeof SNAPSHOT_LAYERS {
    const layer = (Object.keys(REPLAY_PATHS) as Array<keyof typeof REPLAY_PATHS>).find(
      (key) => REPLAY_PATHS[key] === path,
    );
    if (!layer) throw new Error(`the replay has no layer ${path}`);
    return layer;
  }

  async editDate(path: string): Promise<number> {
    return this.firstEditMs + this.edits[this.layerOf(path)] * 60_000;
  }

  async features(path: string): Promise<readonly FeatureLike[]> {
    this.fetches += 1;
    let layers = this.byDay.get(this.day);
    if (!layers) {
      const features = this.days[this.day]!.collection().features;
      const of = (name: string) =>
        features.filter((f) => f.properties?.layer === name).map((f) => ({ geometry: f.geometry }) as FeatureLike);
      layers = { control: of(SNAPSHOT_LAYERS.control), advance: of(SNAPSHOT_LAYERS.advance) };
      this.byDay.set(this.day, layers);
    }
    return layers[this.layerOf(path)];
  }
}
