/**
 * The probe over the twelve real snapshots, on every store backend: events exactly once per crossing (the
 * expected crossings come from turf's distances and intersections, not from the monitor), traced to the map
 * version that caused them, a replayed edit-back detected as a rollback, captures confirmed by the next full
 * update only, and the cheap change detection (edit dates first, then content).
 */
import area from "@turf/area";
import circle from "@turf/circle";
import { featureCollection, multiPolygon, polygon } from "@turf/helpers";
import intersect from "@turf/intersect";
import type { MultiPolygon, Polygon } from "geojson";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/support/backends.js";
import { readSnapshots } from "../sim/isw-snapshots.js";
import type { CityInput } from "./cities.js";
import type { Store } from "../store/database.js";
import type { EventRow } from "./event-view.js";
import { iswDb } from "./tables.js";
import { BAKHMUT_POINTS, pointSubscriptions } from "./testing/bakhmut-places.js";
import { SNAPSHOT_LAYERS } from "./testing/snapshot-replay.js";
import { replayProbe } from "./testing/replay-probe.js";
import { clipTo, turfDistance, type Area } from "./testing/turf-reference.js";

const LEVELS = ["SAFE", "LOW", "MEDIUM", "HIGH", "CRITICAL"];
const ALL_OF = { center: [37.999, 48.595] as [number, number], radiusM: 3_400 };
const CITIES: CityInput[] = [
  {
    name: "Bakhmut",
    lon: 37.999,
    lat: 48.595,
    subscriptions: [
      ...pointSubscriptions(),
      {
        label: "All of Bakhmut",
        check_type: "entirety",
        radius_m: ALL_OF.radiusM,
        market_slug_pattern: "will-russia-capture-all-of-bakhmut-by-*",
      },
    ],
  },
];

const days = readSnapshots();
const raw = days.map((d) => d.collection().features.filter((f) => f.geometry) as unknown as Area[]);

/** The threat levels the defaults give, day by day, from turf's geometry. */
const expectedLevels = new Map<string, string[]>();

beforeAll(() => {
  for (const [label, point] of BAKHMUT_POINTS) {
    expectedLevels.set(
      label,
      raw.map((features) => {
        const d = turfDistance(features, point).distance;
        return d <= 0 ? "CRITICAL" : d <= 1_000 ? "HIGH" : d <= 3_000 ? "MEDIUM" : d <= 10_000 ? "LOW" : "SAFE";
      }),
    );
  }
  const place = circle(ALL_OF.center, ALL_OF.radiusM / 1000, { units: "kilometers", steps: 32 });
  expectedLevels.set(
    "All of Bakhmut",
    raw.map((features) => {
      const pieces = features
        .flatMap((f) => clipTo(f, [37.9, 48.55, 38.1, 48.64]) ?? [])
        .flatMap((f) => f.geometry.coordinates);
      const coverage =
        area(intersect(featureCollection<Polygon | MultiPolygon>([place, multiPolygon(pieces)]))!) / area(place);
      return coverage >= 0.98
        ? "CRITICAL"
        : coverage >= 0.5
          ? "HIGH"
          : coverage >= 0.2
            ? "MEDIUM"
            : coverage > 0
              ? "LOW"
              : "SAFE";
    }),
  );
}, 60_000);

/** The events the contract's rules give for a level sequence (confirmations with ISW_CONFIRM_AFTER_HOURS=0). */
function expectedEvents(label: string, levels: string[]): string[] {
  const out: string[] = [];
  for (let day = 1; day < levels.length; day++) {
    const [before, now] = [levels[day - 1]!, levels[day]!];
    if (LEVELS.indexOf(now) > LEVELS.indexOf(before))
      out.push(`${day} THREAT_${now} ${label}`, ...(now === "CRITICAL" ? [`${day} CAPTURED ${label}`] : []));
    if (LEVELS.indexOf(now) < LEVELS.indexOf(before))
      out.push(`${day} THREAT_REDUCED ${label}`, ...(before === "CRITICAL" ? [`${day} MAP_ROLLBACK ${label}`] : []));
    if (now === "CRITICAL" && before === "CRITICAL" && levels[day - 2] !== "CRITICAL" && day >= 2)
      out.push(`${day} CAPTURE_CONFIRMED ${label}`);
  }
  return out;
}

describe.each(storeBackends)("the territory probe on $kind", (backend) => {
  let store: Store;
  let dispose: () => Promise<void>;
  const open = async () => ({ store, dispose } = await backend.open());
  afterEach(async () => dispose?.());

  const events = async () => iswDb(store.db).selectFrom("isw_events").selectAll().orderBy("id").execute();
  const start = Date.UTC(2023, 4, 20, 18) / 1000;
  const dayOf = (e: EventRow) => Math.round((e.created_at - start) / 3_600) - 1;

  it("emits each event exactly once per crossing, as turf's geometry says, and nothing on repeats or after a restart", async () => {
    await open();
    const env = { ISW_CONFIRM_AFTER_HOURS: "0" };
    const run = replayProbe(store, { cities: CITIES, env });
    for (let day = 0; day < days.length; day++) {
      await run.day(day);
      run.clock.advance(60_000);
      expect((await run.probe.probe()).events).toEqual([]);
    }
    const expected = [...expectedLevels].flatMap(([label, levels]) => expectedEvents(label, levels)).sort();
    const stored = (await events()).map((e) => `${dayOf(e)} ${e.event_type} ${e.subscription_label}`).sort();
    expect(stored).toEqual(expected);
    expect(new Set(stored.map((s) => s.split(" ")[1])).size).toBeGreaterThanOrEqual(4);
    expect(stored.some((s) => s.includes("THREAT_REDUCED"))).toBe(true);

    const restarted = replayProbe(store, { cities: CITIES, env, clock: run.clock, replay: run.replay });
    run.clock.advance(60_000);
    const fetchesBefore = run.replay.fetches;
    expect((await restarted.probe.probe()).events).toEqual([]);
    expect(run.replay.fetches).toBe(fetchesBefore);
    expect(await events()).toHaveLength(expected.length);
  }, 120_000);

  it("traces every event to the map version that caused it, and keeps every layer version with its hash and time", async () => {
    await open();
    const run = replayProbe(store, { cities: CITIES });
    for (let day = 0; day < 8; day++) await run.day(day);
    const db = iswDb(store.db);
    const versions = await db.selectFrom("isw_layer_versions").selectAll().orderBy("id").execute();
    expect(versions.filter((v) => v.layer === "advance")).toHaveLength(8);
    expect(versions.every((v) => /^[0-9a-f]{64}$/.test(v.content_hash) && v.fetched_at > start)).toBe(true);
    const stored = await events();
    expect(stored.length).toBeGreaterThan(0);
    for (const event of stored) {
      const map = await db
        .selectFrom("isw_map_versions")
        .selectAll()
        .where("id", "=", event.map_version_id)
        .executeTakeFirstOrThrow();
      const advance = versions.find((v) => v.id === (JSON.parse(map.layers) as Record<string, number>).advance)!;
      expect(advance.fetched_at).toBe(event.created_at);
      const day = days[dayOf(event)]!.collection().features.filter(
        (f) => f.properties?.layer === SNAPSHOT_LAYERS.advance,
      );
      const vertices = day.reduce((n, f) => n + JSON.stringify(f.geometry?.coordinates ?? []).split("],[").length, 0);
      expect(advance.vertex_count).toBe(vertices);
    }
  }, 60_000);

  it("detects a replayed edit-back as a rollback, and a new capture after it once", async () => {
    await open();
    const run = replayProbe(store, { cities: CITIES });
    await run.day(5);
    expect((await run.day(6)).map((e) => `${e.event_type} ${e.subscription_label}`)).toContain(
      "CAPTURED All of Bakhmut",
    );
    const back = await run.day(5);
    const rollback = back.filter((e) => e.subscription_label === "All of Bakhmut");
    expect(rollback.map((e) => e.event_type)).toEqual(["THREAT_REDUCED", "MAP_ROLLBACK"]);
    const db = iswDb(store.db);
    const advance = await db
      .selectFrom("isw_layer_versions")
      .selectAll()
      .where("layer", "=", "advance")
      .orderBy("id")
      .execute();
    expect(advance.map((v) => v.reverts_to)).toEqual([null, null, advance[0]!.id]);
    expect(rollback[1]!.details).toContain(`edited back: advance layer back to version ${advance[0]!.id}`);
    expect(rollback[1]!.details).toContain("had not been confirmed yet");
    const again = await run.day(6);
    expect(again.filter((e) => e.event_type === "CAPTURED").map((e) => e.subscription_label)).toEqual([
      "All of Bakhmut",
    ]);
  }, 60_000);

  it("confirms a capture only through a full update (both layers edited again) at least ISW_CONFIRM_AFTER_HOURS later", async () => {
    await open();
    const run = replayProbe(store, { cities: CITIES, env: { ISW_CONFIRM_AFTER_HOURS: "12" } });
    await run.day(5);
    await run.day(6);
    const confirmations = async () => (await events()).filter((e) => e.event_type === "CAPTURE_CONFIRMED");
    await run.day(7);
    expect(await confirmations()).toEqual([]);
    run.clock.advance(12 * 3_600_000);
    await run.day(8, ["advance"]);
    expect(await confirmations()).toEqual([]);
    await run.day(8);
    expect((await confirmations()).map((e) => e.subscription_label)).toEqual(["All of Bakhmut"]);
    await run.day(9);
    expect(await confirmations()).toHaveLength(1);
  }, 60_000);

  it("looks at edit dates first: fetches only a layer whose date moved, and stores only new content", async () => {
    await open();
    const run = replayProbe(store, { cities: CITIES });
    await run.day(0);
    expect(run.replay.fetches).toBe(2);
    run.clock.advance(5_000);
    await run.probe.probe();
    expect(run.replay.fetches).toBe(2);
    await run.day(0);
    expect(run.replay.fetches).toBe(4);
    const db = iswDb(store.db);
    const count = async () => (await db.selectFrom("isw_layer_versions").select("id").execute()).length;
    expect(await count()).toBe(2);
    const dated = await db.selectFrom("isw_layer_versions").select(["layer", "edit_date_ms"]).execute();
    expect(dated.map((v) => v.edit_date_ms)).toEqual([
      await run.replay.editDate("control/FeatureServer/0"),
      await run.replay.editDate("advance/FeatureServer/0"),
    ]);
    const report = await run.day(1);
    expect(report).toBeDefined();
    expect(await count()).toBe(3);
    const maps = await db.selectFrom("isw_map_versions").select("changed").orderBy("id").execute();
    expect(maps.map((m) => JSON.parse(m.changed))).toEqual([["control", "advance"], ["advance"]]);
  }, 60_000);
});
