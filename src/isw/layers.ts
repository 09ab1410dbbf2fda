/**
 * The layers the probe reads (their paths are settings: service names change without notice) and how it reads
 * them: ArcGIS layer metadata for the cheap edit-date check, then the features when it moved.
 */
import type { Config } from "../config/index.js";
import type { ArcGisClient } from "../venue/arcgis.js";
import type { GeoJsonFeature } from "../venue/shapes/arcgis.js";

export type LayerKey = "control" | "advance" | "gains24h" | "infiltration";

export interface LayerSpec {
  readonly key: LayerKey;
  readonly path: string;
  /** Edited by ISW's daily update: a capture is confirmed once every daily layer was edited again. */
  readonly daily: boolean;
  /** Counts for `enter` subscriptions only. */
  readonly enterOnly: boolean;
}

/** Layers with an edit date first: the 24 h gains layer, which has none, is fetched last and less often. */
export function configuredLayers(isw: Config["isw"]): LayerSpec[] {
  const all: LayerSpec[] = [
    { key: "control", path: isw.controlLayer, daily: true, enterOnly: false },
    { key: "advance", path: isw.advanceLayer, daily: true, enterOnly: false },
    { key: "infiltration", path: isw.infiltrationLayer, daily: false, enterOnly: true },
    { key: "gains24h", path: isw.gainsLayer, daily: false, enterOnly: false },
  ];
  return all.filter((layer) => layer.path.trim() !== "");
}

export type FeatureLike = Pick<GeoJsonFeature, "geometry">;

export interface LayerSource {
  /** The layer's last edit date (ms since the epoch), or null when it publishes none. */
  editDate(path: string, signal?: AbortSignal): Promise<number | null>;
  features(path: string, signal?: AbortSignal): Promise<readonly FeatureLike[]>;
}

/** The layers on an ArcGIS server; pages are ordered by each layer's own id field (OBJECTID, or FID on some). */
export function arcgisLayerSource(client: ArcGisClient): LayerSource {
  const idFields = new Map<string, string>();
  const metadata = async (path: string, signal?: AbortSignal) => {
    const check = await client.checkLayer(path, null, signal);
    if (check.metadata.objectIdField) idFields.set(path, check.metadata.objectIdField);
    return check.lastEditDate;
  };
  return {
    editDate: metadata,
    async features(path, signal) {
      if (!idFields.has(path)) await metadata(path, signal);
      return client.allFeatures(path, { orderByFields: idFields.get(path) ?? "OBJECTID" }, signal);
    },
  };
}
