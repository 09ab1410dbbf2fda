/**
 * The real territory-map snapshots the simulated venue replays and the territory tests read: twelve consecutive
 * daily GeoJSON snapshots kept in the repository as one Brotli-compressed file of JSON lines, one line a day
 * (`{"date":"YYYY-MM-DD","collection":{FeatureCollection}}`). One file compresses 40 times smaller than the days
 * compressed apart, since consecutive days share most of their rings. A folder of `*.geojson` files (named so
 * they sort by date) is read as well, for other data.
 */
import { brotliCompressSync, brotliDecompressSync, constants } from "node:zlib";
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { packagePath } from "../package.js";

/** The twelve days of May 2023 kept in the repository (see assets/isw/README.md). */
export const DEFAULT_ISW_SNAPSHOTS = packagePath("assets", "isw", "snapshots.ndjson.br");

export interface SnapshotGeometry {
  type: string;
  coordinates: unknown;
}

export interface SnapshotFeature {
  geometry: SnapshotGeometry | null;
  properties?: { layer?: string } | null;
}

export interface SnapshotCollection {
  type: "FeatureCollection";
  features: SnapshotFeature[];
}

/** One day's snapshot, parsed on first use. */
export interface Snapshot {
  readonly date: string;
  collection(): SnapshotCollection;
}

function lazy(date: string, text: () => string): Snapshot {
  let parsed: SnapshotCollection | undefined;
  return { date, collection: () => (parsed ??= JSON.parse(text()) as SnapshotCollection) };
}

function readBundle(path: string): Snapshot[] {
  const lines = brotliDecompressSync(readFileSync(path))
    .toString("utf8")
    .split("\n")
    .filter((line) => line.length > 0);
  return lines.map((line) => {
    const { date, collection } = JSON.parse(line) as { date: string; collection: SnapshotCollection };
    return { date, collection: () => collection };
  });
}

function readFolder(dir: string): Snapshot[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith(".geojson"))
    .sort()
    .map((name) => lazy(basename(name, ".geojson"), () => readFileSync(join(dir, name), "utf8")));
}

/** The snapshots of a bundle file or a folder of `.geojson` files, oldest first; none when the path is absent. */
export function readSnapshots(path: string = DEFAULT_ISW_SNAPSHOTS): Snapshot[] {
  if (!existsSync(path)) return [];
  return statSync(path).isDirectory() ? readFolder(path) : readBundle(path);
}

/** Writes a folder of daily `YYYYMMDD.geojson` files as one bundle (how assets/isw was made). */
export function writeSnapshotBundle(dir: string, out: string): void {
  const lines = readFolder(dir).map((s) => {
    const date = s.date.replace(/^(\d{4})(\d{2})(\d{2})$/, "$1-$2-$3");
    return JSON.stringify({ date, collection: s.collection() });
  });
  const text = Buffer.from(`${lines.join("\n")}\n`);
  // A 16 MiB window reaches back past the previous day, whose rings most of a day repeats.
  const params = {
    [constants.BROTLI_PARAM_QUALITY]: 11,
    [constants.BROTLI_PARAM_LGWIN]: 24,
    [constants.BROTLI_PARAM_SIZE_HINT]: text.length,
  };
  writeFileSync(out, brotliCompressSync(text, { params }));
}
