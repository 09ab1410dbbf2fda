/**
 * One probe of the territory map. Each layer's edit date is read first (the cheap check); a layer whose date
 * moved (or, without dates, whose content is due for a look) is fetched and hashed, and only new content makes a
 * new layer version. New versions make a new map: the shading is rebuilt, the subscriptions near a change are
 * measured again (evaluate.ts), and everything (layer versions with their geometry, the map version, states,
 * events, the health checkpoint) is stored in one transaction, so each event can be
 * traced to the map version that caused it and a crash leaves whole probes only.
 */
import type { Insertable } from "kysely";
import type { Config } from "../config/index.js";
import type { Clock } from "../platform/clock.js";
import type { Logger } from "../platform/logger.js";
import type { CityDefinition } from "./cities.js";
import { saveCheckpoint } from "../store/checkpoints.js";
import type { Store } from "../store/database.js";
import { detailsOf } from "./event-details.js";
import { isoTime, type EventRow } from "./event-view.js";
import { confirmCaptures, evaluateSubscriptions, placeOf, type EventDraft, type StateDraft } from "./evaluate.js";
import { contentHash, polygonsOfFeatures, type TerritoryPolygon } from "./geo/polygons.js";
import { Shading, type LayerFilter } from "./geo/shading.js";
import type { LayerKey, LayerSource, LayerSpec } from "./layers.js";
import {
  activeSubscriptions,
  insertEvent,
  insertLayerVersion,
  insertMapVersion,
  latestLayerVersions,
  latestMapVersionId,
  loadStates,
  saveState,
  setLayerEditDate,
  syncCities,
  type StateRow,
  type SubscriptionRecord,
} from "./monitor-store.js";
import { iswDb, type IswDb, type IswEventsTable } from "./tables.js";
import { thresholdsOf, threatRank, type ThreatThresholds } from "./threat.js";

/** The probe's source name in /api/v1/health. */
export const TERRITORY_SOURCE = "isw-territory";

interface CurrentLayer {
  readonly versionId: number;
  readonly contentHash: string;
  readonly editDateMs: number | null;
  readonly polygons: readonly TerritoryPolygon[];
  /** When its content was last fetched (unix seconds): a layer without edit dates is looked at again after ISW_SLOW_PROBE_SECONDS. */
  readonly checkedAt: number;
}

interface Fetched {
  readonly spec: LayerSpec;
  readonly editDateMs: number | null;
  readonly contentHash: string;
  readonly featureCount: number;
  readonly polygons: readonly TerritoryPolygon[];
}

export interface ProbeReport {
  /** Layers with new content, which made a new map version. */
  readonly changedLayers: readonly LayerKey[];
  readonly mapVersionId: number | null;
  readonly measured: number;
  readonly events: readonly EventRow[];
}

export interface ProbeDeps {
  readonly store: Store;
  readonly source: LayerSource;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly isw: Config["isw"];
  readonly cities: readonly CityDefinition[];
  readonly layers: readonly LayerSpec[];
}

export class TerritoryProbe {
  private readonly db: IswDb;
  private readonly thresholds: ThreatThresholds;
  private current = new Map<LayerKey, CurrentLayer>();
  private shading: Shading | null = null;
  private mapVersionId: number | null = null;
  private subscriptions: SubscriptionRecord[] = [];
  private states = new Map<number, StateRow>();
  private initialized: Promise<void> | null = null;

  constructor(private readonly deps: ProbeDeps) {
    this.db = iswDb(deps.store.db);
    this.thresholds = thresholdsOf(deps.isw);
  }

  /** Stores the configured cities, then loads the subscriptions, their states and the newest map. */
  init(): Promise<void> {
    this.initialized ??= (async () => {
      await this.deps.store.transaction((tx) => syncCities(iswDb(tx.db), this.deps.cities, this.deps.clock.now()));
      this.subscriptions = await activeSubscriptions(this.db);
      this.states = await loadStates(this.db);
      const configured = new Set(this.deps.layers.map((l) => l.key as string));
      for (const v of await latestLayerVersions(this.db)) {
        if (configured.has(v.layer))
          this.current.set(v.layer as LayerKey, {
            versionId: v.id,
            contentHash: v.contentHash,
            editDateMs: v.editDateMs,
            polygons: v.polygons,
            checkedAt: v.fetchedAt,
          });
      }
      if (this.current.size > 0) {
        this.shading = this.buildShading(this.current);
        this.mapVersionId = await latestMapVersionId(this.db);
      }
    })();
    return this.initialized;
  }

  private buildShading(layers: ReadonlyMap<LayerKey, { polygons: readonly TerritoryPolygon[] }>): Shading {
    return new Shading([...layers].flatMap(([layer, { polygons }]) => polygons.map((p) => ({ ...p, layer }))));
  }

  private layersFor(subscription: SubscriptionRecord): LayerFilter {
    if (subscription.checkType === "enter") return null;
    return new Set(this.deps.layers.filter((l) => !l.enterOnly).map((l) => l.key));
  }

  /** Reads every layer's edit date (and content where due); returns what is new. */
  private async look(
    now: number,
    signal?: AbortSignal,
  ): Promise<{ fetched: Fetched[]; editMoves: Map<LayerKey, number> }> {
    const fetched: Fetched[] = [];
    const editMoves = new Map<LayerKey, number>();
    for (const spec of this.deps.layers) {
      const known = this.current.get(spec.key);
      const editDateMs = await this.deps.source.editDate(spec.path, signal);
      if (editDateMs !== null && known && known.editDateMs === editDateMs) continue;
      if (
        editDateMs === null &&
        known &&
        fetched.length === 0 &&
        now - known.checkedAt < this.deps.isw.slowProbeSeconds
      )
        continue;
      const features = await this.deps.source.features(spec.path, signal);
      const polygons = polygonsOfFeatures(features);
      const hash = contentHash(polygons);
      if (known && known.contentHash === hash) {
        this.current.set(spec.key, { ...known, checkedAt: now });
        if (editDateMs !== null) editMoves.set(spec.key, editDateMs);
        continue;
      }
      fetched.push({ spec, editDateMs, contentHash: hash, featureCount: features.length, polygons });
    }
    return { fetched, editMoves };
  }

  private dailyEdits(editMoves: ReadonlyMap<LayerKey, number>, fetched: readonly Fetched[]): Record<string, number> {
    const edits: Record<string, number> = {};
    for (const spec of this.deps.layers.filter((l) => l.daily)) {
      const at =
        fetched.find((f) => f.spec.key === spec.key)?.editDateMs ??
        editMoves.get(spec.key) ??
        this.current.get(spec.key)?.editDateMs ??
        null;
      if (at !== null) edits[spec.key] = at;
    }
    return edits;
  }

  async probe(signal?: AbortSignal): Promise<ProbeReport> {
    await this.init();
    const now = this.deps.clock.now();
    const { fetched, editMoves } = await this.look(now, signal);
    const needsBaseline = this.subscriptions.some((s) => this.states.get(s.id)?.definition_hash !== s.definitionHash);
    if (fetched.length === 0 && editMoves.size === 0 && !(needsBaseline && this.shading)) {
      await saveCheckpoint(
        this.deps.store.db,
        TERRITORY_SOURCE,
        `map:${this.mapVersionId ?? 0}`,
        now,
        this.shading !== null,
      );
      return { changedLayers: [], mapVersionId: this.mapVersionId, measured: 0, events: [] };
    }
    const layers = new Map<LayerKey, { polygons: readonly TerritoryPolygon[] }>(this.current);
    for (const f of fetched) layers.set(f.spec.key, f);
    const shading = fetched.length > 0 ? this.buildShading(layers) : this.shading!;
    const dailyEdits = this.dailyEdits(editMoves, fetched);
    const previousDailyEdits = this.dailyEdits(new Map(), []);
    const timing = {
      now,
      dailyEdits,
      previousDailyEdits,
      confirmAfterSeconds: this.deps.isw.confirmAfterHours * 3_600,
    };
    const measured = evaluateSubscriptions({
      ...timing,
      subscriptions: this.subscriptions,
      states: this.states,
      shading,
      thresholds: this.thresholds,
      searchRadiusM: this.deps.isw.lowDistanceM * 1.2,
      layersFor: (s) => this.layersFor(s),
      baselineOnly: fetched.length === 0,
    });
    const afterMeasuring = new Map(this.states);
    for (const draft of measured.states)
      afterMeasuring.set(draft.row.subscription_id, { ...draft.row, map_version_id: 0 });
    const confirmed = confirmCaptures(this.subscriptions, afterMeasuring, timing);
    const stored = await this.deps.store.transaction(async (tx) => {
      const result = await this.store(iswDb(tx.db), {
        now,
        fetched,
        editMoves,
        measured: measured.states,
        confirmed: confirmed.states,
        events: [...measured.events, ...confirmed.events],
      });
      await saveCheckpoint(tx.db, TERRITORY_SOURCE, `map:${result.mapVersionId}`, now, true);
      return result;
    });
    this.current = stored.current;
    this.shading = shading;
    this.mapVersionId = stored.mapVersionId;
    for (const row of stored.states) this.states.set(row.subscription_id, row);
    if (stored.events.length > 0)
      this.deps.logger.info({ events: stored.events.length, map: stored.mapVersionId }, "territory events");
    return {
      changedLayers: fetched.map((f) => f.spec.key),
      mapVersionId: stored.mapVersionId,
      measured: measured.states.length,
      events: stored.events,
    };
  }

  private async store(
    db: IswDb,
    input: {
      now: number;
      fetched: readonly Fetched[];
      editMoves: ReadonlyMap<LayerKey, number>;
      measured: readonly StateDraft[];
      confirmed: readonly StateRow[];
      events: readonly EventDraft[];
    },
  ) {
    const { now } = input;
    const current = new Map(this.current);
    const reverted: string[] = [];
    for (const f of input.fetched) {
      const { id, revertsTo } = await insertLayerVersion(
        db,
        {
          layer: f.spec.key,
          contentHash: f.contentHash,
          editDateMs: f.editDateMs,
          featureCount: f.featureCount,
          polygons: f.polygons,
        },
        now,
      );
      current.set(f.spec.key, {
        versionId: id,
        contentHash: f.contentHash,
        editDateMs: f.editDateMs,
        polygons: f.polygons,
        checkedAt: now,
      });
      if (revertsTo)
        reverted.push(`${f.spec.key} layer back to version ${revertsTo.id} (${isoTime(revertsTo.fetchedAt)})`);
    }
    for (const [key, editDateMs] of input.editMoves) {
      const known = current.get(key)!;
      await setLayerEditDate(db, known.versionId, editDateMs);
      current.set(key, { ...known, editDateMs });
    }
    const mapVersionId =
      input.fetched.length > 0
        ? await insertMapVersion(
            db,
            now,
            Object.fromEntries([...current].map(([key, layer]) => [key, layer.versionId])),
            input.fetched.map((f) => f.spec.key),
          )
        : (this.mapVersionId ?? 0);
    const events: EventRow[] = [];
    const captureIds = new Map<number, number>();
    for (const draft of input.events) {
      const { subscription: s, crossing, measurement } = draft;
      const row: Insertable<IswEventsTable> = {
        subscription_id: s.id,
        city: s.city,
        event_type: crossing.eventType,
        severity: crossing.severity,
        severity_rank: threatRank(crossing.severity),
        previous_severity: crossing.previous,
        details: detailsOf(crossing, {
          label: s.label,
          place: placeOf(s),
          measurement,
          thresholds: this.thresholds,
          captureConfirmed: draft.captureConfirmed,
          reverted,
        }),
        created_at: now,
        map_version_id: mapVersionId,
        check_type: s.checkType,
        subscription_label: s.label,
        market_slug_pattern: s.marketSlugPattern,
        coverage: measurement.coverage,
        closest_distance_m: measurement.closestDistanceM,
      };
      const event = await insertEvent(db, row);
      events.push(event);
      if (crossing.eventType === "CAPTURED") captureIds.set(s.id, event.id);
    }
    const states: StateRow[] = [];
    for (const draft of input.measured) {
      const row: StateRow = {
        ...draft.row,
        map_version_id: mapVersionId,
        capture_event_id: draft.newCapture
          ? (captureIds.get(draft.row.subscription_id) ?? null)
          : draft.row.capture_event_id,
      };
      await saveState(db, row);
      states.push(row);
    }
    for (const row of input.confirmed) {
      // A confirmation of a subscription measured in this probe too belongs to this probe's map.
      const measuredNow = states.find((s) => s.subscription_id === row.subscription_id);
      const confirmed = { ...row, map_version_id: measuredNow?.map_version_id ?? row.map_version_id };
      await saveState(db, confirmed);
      states.push(confirmed);
    }
    return { current, mapVersionId, states, events };
  }
}
