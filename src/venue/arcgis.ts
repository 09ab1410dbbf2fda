/**
 * ArcGIS FeatureServer client for the ISW territory layers (the ISW layers on ArcGIS): a cheap change check on
 * layer metadata, and paged GeoJSON queries. The server throttles with an error object inside HTTP 200 and
 * refuses bursts, so every request goes through one slot, one after another, and such errors are retried.
 */
import type { Config } from "../config/index.js";
import { systemClock, type Clock } from "../platform/clock.js";
import { VenueHttpClient, type Verdict, type VenueHttpOptions } from "./http.js";
import type { RateLimit } from "./pacing.js";
import {
  ArcGisErrorShape,
  ArcGisLayerMetadataShape,
  GeoJsonQueryPageShape,
  pageExceededTransferLimit,
  type ArcGisLayerMetadata,
  type GeoJsonFeature,
} from "./shapes/arcgis.js";
import { VenueShapeError } from "./shapes/shape.js";

/** Unpublished; polite enough for a probe every 5 s over six layers plus the occasional full fetch. */
export const ARCGIS_RATE_LIMITS: readonly RateLimit[] = [{ name: "arcgis", limit: 60, windowMs: 10_000 }];

/** Throttling (429) and server trouble (5xx) inside a 200 are retried; other error codes fail with that code. */
export function inspectArcGis(status: number, body: unknown): Verdict | null {
  if (status !== 200 || !ArcGisErrorShape.is(body)) return null;
  const code = body.error.code;
  if (code === 429 || code === 408 || code >= 500) return { kind: "retry", status: code };
  return { kind: "fail", status: code >= 400 ? code : 502 };
}

export interface LayerCheck {
  /** `editingInfo.lastEditDate`, ms since the epoch; null when the layer publishes none (e.g. the 24 h gains layer). */
  readonly lastEditDate: number | null;
  /** Whether it differs from the known one; null when the layer cannot tell (fetch and compare content instead). */
  readonly changed: boolean | null;
  readonly metadata: ArcGisLayerMetadata;
}

export interface FeatureQuery {
  readonly where?: string;
  readonly outFields?: string;
  /** A stable order is what makes offset paging sound: the layer's id field (OBJECTID, or FID on some layers). */
  readonly orderByFields?: string;
  readonly pageSize?: number;
  /** Decimal places of coordinates; 4 halves the payload. */
  readonly geometryPrecision?: number;
}

export interface FeaturePage {
  readonly type: "page";
  readonly offset: number;
  readonly features: GeoJsonFeature[];
}

export interface FeaturesEnd {
  readonly type: "end";
  readonly featureCount: number;
  readonly pageCount: number;
}

export class ArcGisClient {
  private readonly clock: Clock;

  constructor(
    readonly http: VenueHttpClient,
    options: { clock?: Clock } = {},
  ) {
    this.clock = options.clock ?? systemClock;
  }

  static fromConfig(config: Pick<Config, "isw" | "venue">, overrides: Partial<VenueHttpOptions> = {}): ArcGisClient {
    return new ArcGisClient(
      new VenueHttpClient({
        name: "arcgis",
        baseUrl: config.isw.arcgisUrl,
        timeoutMs: Math.max(config.venue.requestTimeoutMs, 30_000),
        rateLimits: ARCGIS_RATE_LIMITS,
        maxConcurrent: 1,
        ...overrides,
      }),
      { clock: overrides.clock },
    );
  }

  /** `?f=json` metadata with a cache-busting parameter: a CDN caches the plain URL for 300 s. */
  async layerMetadata(layer: string, signal?: AbortSignal): Promise<ArcGisLayerMetadata> {
    const body = await this.http.getJson(
      layer,
      { f: "json", _: this.clock.nowMs() },
      { signal, inspect: inspectArcGis },
    );
    return ArcGisLayerMetadataShape.parse(body, `arcgis ${layer} metadata`);
  }

  async checkLayer(layer: string, knownLastEditDate: number | null, signal?: AbortSignal): Promise<LayerCheck> {
    const metadata = await this.layerMetadata(layer, signal);
    const lastEditDate = metadata.editingInfo?.lastEditDate ?? null;
    const changed = lastEditDate === null ? null : lastEditDate !== knownLastEditDate;
    return { lastEditDate, changed, metadata };
  }

  /** The layer's features page by page (`resultOffset`/`resultRecordCount`), while `exceededTransferLimit` says more follow. */
  async *features(
    layer: string,
    query: FeatureQuery = {},
    signal?: AbortSignal,
  ): AsyncGenerator<FeaturePage | FeaturesEnd, void, undefined> {
    const pageSize = query.pageSize ?? 2_000;
    let offset = 0;
    let pageCount = 0;
    for (;;) {
      const body = await this.http.getJson(
        `${layer.replace(/\/+$/, "")}/query`,
        {
          where: query.where ?? "1=1",
          outFields: query.outFields ?? "*",
          returnGeometry: true,
          outSR: 4326,
          f: "geojson",
          orderByFields: query.orderByFields ?? "OBJECTID",
          resultOffset: offset,
          resultRecordCount: pageSize,
          geometryPrecision: query.geometryPrecision,
        },
        { signal, inspect: inspectArcGis },
      );
      const source = `arcgis ${layer} offset ${offset}`;
      const page = GeoJsonQueryPageShape.parse(body, source);
      pageCount += 1;
      yield { type: "page", offset, features: page.features };
      offset += page.features.length;
      if (!pageExceededTransferLimit(page)) break;
      if (page.features.length === 0)
        throw new VenueShapeError(source, [{ path: "/features", message: "empty page claims more features" }]);
    }
    yield { type: "end", featureCount: offset, pageCount };
  }

  /** All features of one layer. */
  async allFeatures(layer: string, query: FeatureQuery = {}, signal?: AbortSignal): Promise<GeoJsonFeature[]> {
    const all: GeoJsonFeature[] = [];
    for await (const item of this.features(layer, query, signal)) if (item.type === "page") all.push(...item.features);
    return all;
  }

  /** Several layers, strictly one after another (the server refuses parallel bursts). */
  async fetchLayers(
    layers: readonly { layer: string; query?: FeatureQuery }[],
    signal?: AbortSignal,
  ): Promise<Map<string, GeoJsonFeature[]>> {
    const result = new Map<string, GeoJsonFeature[]>();
    for (const { layer, query } of layers) result.set(layer, await this.allFeatures(layer, query, signal));
    return result;
  }
}
