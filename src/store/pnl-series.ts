/**
 * The P&L series, one row a wallet and series (issue 49, migration 0047): our hourly and daily points (what the
 * Deriver values, in USD) and the venue's curve (micro-USD, a wallet sync's), each packed by
 * src/store/pnl-series-codec.ts. As a row a point, they were 30 bytes a fill of the 1,000,000-fill world on SQLite
 * and 106 on PostgreSQL (its row and index headers), for three numbers a point. Decision: docs/decisions.md,
 * "The P&L series are stored packed, one row a wallet and series".
 *
 * Readers ask for a wallet's points, or each wallet's point at an instant; writers replace or merge a wallet's
 * points. Both go through here: no SQL elsewhere names the table.
 */
import type { Store, StoreTransaction } from "./database.js";
import { addToDictionarySql } from "./dictionaries.js";
import { FILL_DICTIONARIES } from "./fill-layout.js";
import {
  decodeSeries,
  encodeSeries,
  mergeSeries,
  type SeriesPoint,
  packedPointsAt,
  visitSeries,
} from "./pnl-series-codec.js";
import { chunks, placeholders, queryRows } from "./raw-sql.js";
import { yieldToLoop } from "../platform/yield-to-loop.js";

export type { SeriesPoint } from "./pnl-series-codec.js";

export const PNL_SERIES_TABLE = "pnl_series";

/** Each series' code in the table and the scale its values are packed at. */
export const PNL_SERIES = {
  hour: { code: 0, scale: 1e6 },
  day: { code: 1, scale: 1e6 },
  venue: { code: 2, scale: 1 },
} as const;

export type PnlSeriesName = keyof typeof PNL_SERIES;

/** A series' name by its code in the table. */
const SERIES_BY_CODE = new Map<number, PnlSeriesName>(
  Object.entries(PNL_SERIES).map(([name, { code }]) => [code, name as PnlSeriesName]),
);

/** SQL: the rows of some (wallet id, series code) keys, two parameters a key. */
const keysWhere = (count: number) => Array.from({ length: count }, () => "(wallet_id = ? and series = ?)").join(" or ");

/** One point of our series as the Deriver makes it (the table `pnl_points` had these columns). */
export interface PnlPointRow {
  readonly wallet: string;
  readonly resolution: "hour" | "day";
  readonly t: number;
  readonly pnl: number;
}

type Reader = Pick<Store, "db" | "kind">;

const { table: ADDRESSES, column: ADDRESS } = FILL_DICTIONARIES.addresses;
const ID_OF_ADDRESS = `(select id from ${ADDRESSES} where ${ADDRESS} = ?)`;
/** Wallets a statement reads or writes at once (parameters and rows well within both stores' limits). */
const WALLETS_PER_STATEMENT = 500;

/** A wallet's points of one series, in time order (none: empty). */
export async function walletSeries(store: Reader, wallet: string, series: PnlSeriesName): Promise<SeriesPoint[]> {
  const [row] = await queryRows<{ points: Uint8Array }>(
    store.db,
    store.kind,
    `select points from ${PNL_SERIES_TABLE} where wallet_id = ${ID_OF_ADDRESS} and series = ?`,
    [wallet, PNL_SERIES[series].code],
  );
  return row ? decodeSeries(row.points, PNL_SERIES[series].scale) : [];
}

/** Each given wallet's packed points of one series (a wallet without any is left out). */
async function packedOf(store: Reader, series: PnlSeriesName, wallets: readonly string[]) {
  const out: { wallet: string; points: Uint8Array }[] = [];
  for (const slice of chunks(wallets, WALLETS_PER_STATEMENT))
    out.push(
      ...(await queryRows<{ wallet: string; points: Uint8Array }>(
        store.db,
        store.kind,
        `select a.${ADDRESS} as wallet, s.points from ${ADDRESSES} a
          join ${PNL_SERIES_TABLE} s on s.wallet_id = a.id and s.series = ?
          where a.${ADDRESS} in ${placeholders(slice.length)}`,
        [PNL_SERIES[series].code, ...slice],
      )),
    );
  return out;
}

/** Every wallet's packed points of one series, a page of wallets at a time (in wallet id order). */
async function* everyPacked(store: Reader, series: PnlSeriesName) {
  for (let after = 0; ; ) {
    const page = await queryRows<{ id: number; wallet: string; points: Uint8Array }>(
      store.db,
      store.kind,
      `select s.wallet_id as id, a.${ADDRESS} as wallet, s.points from ${PNL_SERIES_TABLE} s
        join ${ADDRESSES} a on a.id = s.wallet_id
        where s.series = ? and s.wallet_id > ? order by s.wallet_id limit ${WALLETS_PER_STATEMENT * 4}`,
      [PNL_SERIES[series].code, after],
    );
    yield* page;
    if (page.length < WALLETS_PER_STATEMENT * 4) return;
    after = Number(page[page.length - 1]!.id);
    await yieldToLoop();
  }
}

/** The given wallets' (or every wallet's) points of one series, each wallet's in time order. */
export async function seriesOfWallets(
  store: Reader,
  series: PnlSeriesName,
  wallets: readonly string[] | "all",
): Promise<Map<string, SeriesPoint[]>> {
  const out = new Map<string, SeriesPoint[]>();
  const { scale } = PNL_SERIES[series];
  const rows = wallets === "all" ? everyPacked(store, series) : await packedOf(store, series, wallets);
  for await (const { wallet, points } of rows) out.set(wallet, decodeSeries(points, scale));
  return out;
}

/** Each given wallet's (or every wallet's) latest point at or before `at`; a wallet with none is left out. */
export async function seriesPointsAt(
  store: Reader,
  series: PnlSeriesName,
  wallets: readonly string[] | "all",
  at: number,
): Promise<Map<string, SeriesPoint>> {
  const out = new Map<string, SeriesPoint>();
  for (const [wallet, [point]] of await seriesPointsAtEach(store, series, wallets, [at]))
    if (point) out.set(wallet, point);
  return out;
}

/**
 * Each given wallet's (or every wallet's) latest point at or before each instant (undefined where it has none),
 * each wallet's row read once and decoded no further than the latest instant; a wallet without a row is left out.
 */
export async function seriesPointsAtEach(
  store: Reader,
  series: PnlSeriesName,
  wallets: readonly string[] | "all",
  instants: readonly number[],
): Promise<Map<string, (SeriesPoint | undefined)[]>> {
  const out = new Map<string, (SeriesPoint | undefined)[]>();
  const { scale } = PNL_SERIES[series];
  const rows = wallets === "all" ? everyPacked(store, series) : await packedOf(store, series, wallets);
  for await (const { wallet, points } of rows) out.set(wallet, packedPointsAt(points, scale, instants));
  return out;
}

/** The latest of `points` (in time order) at or before `at`. */
export function pointAt(points: readonly SeriesPoint[], at: number): SeriesPoint | undefined {
  let found: SeriesPoint | undefined;
  for (const point of points) {
    if (point.t > at) break;
    found = point;
  }
  return found;
}

/** Each wallet's id, the wallets not in the dictionary added to it (in address order, as every writer adds them). */
async function walletIds(tx: StoreTransaction, wallets: readonly string[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const slice of chunks([...new Set(wallets)], WALLETS_PER_STATEMENT)) {
    const values = `select column1 as v from (values ${slice.map(() => "(?)").join(", ")}) x`;
    await queryRows(tx.db, tx.kind, addToDictionarySql(FILL_DICTIONARIES.addresses, values), slice);
    const rows = await queryRows<{ id: number; address: string }>(
      tx.db,
      tx.kind,
      `select id, ${ADDRESS} as address from ${ADDRESSES} where ${ADDRESS} in ${placeholders(slice.length)}`,
      slice,
    );
    for (const row of rows) ids.set(row.address, Number(row.id));
  }
  return ids;
}

/** One wallet's points of one series, as written. */
interface SeriesWrite {
  readonly wallet: string;
  readonly series: PnlSeriesName;
  readonly points: readonly SeriesPoint[];
}

/**
 * Writes each wallet's points of a series: `"replace"` stores them as its whole series (none: its row deleted),
 * `"merge"` over what is stored (a point of the same time replaced).
 */
async function writeSeries(tx: StoreTransaction, writes: readonly SeriesWrite[], mode: "replace" | "merge") {
  if (writes.length === 0) return;
  const ids = await walletIds(
    tx,
    writes.map((w) => w.wallet),
  );
  const stored = mode === "merge" ? await storedOf(tx, writes, ids) : new Map<string, SeriesPoint[]>();
  const rows: unknown[][] = [];
  const emptied: unknown[][] = [];
  for (const { wallet, series, points } of writes) {
    const key = [ids.get(wallet)!, PNL_SERIES[series].code];
    const before = stored.get(`${key[0]}:${key[1]}`);
    const merged = before ? mergeSeries(before, points) : points;
    if (merged.length === 0) emptied.push(key);
    else rows.push([...key, encodeSeries(merged, PNL_SERIES[series].scale)]);
  }
  for (const slice of chunks(emptied, WALLETS_PER_STATEMENT))
    await queryRows(tx.db, tx.kind, `delete from ${PNL_SERIES_TABLE} where ${keysWhere(slice.length)}`, slice.flat());
  await writePackedRows(tx, rows);
}

/** Stores packed series rows (wallet id, series code, bytes), each replacing the row of the same key. */
export async function writePackedRows(store: Reader, rows: readonly unknown[][]): Promise<void> {
  for (const slice of chunks(rows, WALLETS_PER_STATEMENT))
    await queryRows(
      store.db,
      store.kind,
      `insert into ${PNL_SERIES_TABLE} (wallet_id, series, points) values ${slice.map(() => "(?, ?, ?)").join(", ")}
        on conflict (wallet_id, series) do update set points = excluded.points`,
      slice.flat(),
    );
}

/** The stored points of the written wallets' series, by `<wallet id>:<series code>`. */
async function storedOf(tx: StoreTransaction, writes: readonly SeriesWrite[], ids: Map<string, number>) {
  const stored = new Map<string, SeriesPoint[]>();
  const keys = writes.map((w) => [ids.get(w.wallet)!, PNL_SERIES[w.series].code] as const);
  for (const slice of chunks(keys, WALLETS_PER_STATEMENT)) {
    const rows = await queryRows<{ wallet_id: number; series: number; points: Uint8Array }>(
      tx.db,
      tx.kind,
      `select wallet_id, series, points from ${PNL_SERIES_TABLE} where ${keysWhere(slice.length)}`,
      slice.flat(),
    );
    for (const row of rows) {
      const { scale } = PNL_SERIES[SERIES_BY_CODE.get(Number(row.series))!];
      stored.set(`${row.wallet_id}:${row.series}`, decodeSeries(row.points, scale));
    }
  }
  return stored;
}

/** Our points grouped by wallet and resolution, a group's points in time order (rows of one group need not be adjacent). */
function groupPoints(rows: Iterable<PnlPointRow>): SeriesWrite[] {
  const groups = new Map<string, { wallet: string; series: PnlSeriesName; points: SeriesPoint[] }>();
  for (const { wallet, resolution, t, pnl } of rows) {
    const key = `${resolution}:${wallet}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { wallet, series: resolution, points: [] }));
    group.points.push({ t, pnl });
  }
  return [...groups.values()].map((g) => ({ ...g, points: mergeSeries([], g.points) }));
}

/** Writes our points over the stored ones (a point of the same wallet, resolution and time replaced). */
export function mergePnlPoints(tx: StoreTransaction, rows: Iterable<PnlPointRow>): Promise<void> {
  return writeSeries(tx, groupPoints(rows), "merge");
}

/** Packed rows a write gathers before it stores them (a rebuild's stream: a few hundred wallets at a time). */
const STREAMED_SERIES = WALLETS_PER_STATEMENT;

/** A wallet's series packed, to be stored as its whole row. */
interface PackedWrite {
  readonly wallet: string;
  readonly series: PnlSeriesName;
  readonly bytes: Buffer;
}

async function writePacked(tx: StoreTransaction, writes: readonly PackedWrite[]): Promise<void> {
  if (writes.length === 0) return;
  const ids = await walletIds(
    tx,
    writes.map((w) => w.wallet),
  );
  await writePackedRows(
    tx,
    writes.map((w) => [ids.get(w.wallet)!, PNL_SERIES[w.series].code, w.bytes]),
  );
}

/** Points in increasing time as they are when they came so (a stream's), else sorted with a time's last point kept. */
const inTimeOrder = (points: SeriesPoint[]): SeriesPoint[] =>
  points.every((p, i) => i === 0 || p.t > points[i - 1]!.t) ? points : mergeSeries([], points);

/**
 * Stores the given wallets' whole series of `resolution` (the stored ones replaced; a wallet without a row here
 * keeps none). `rows` may be a stream (a rebuild's, made as they are written): each wallet's series is packed as
 * soon as its adjacent rows end and only packed rows are held until they are stored, a few hundred at a time; a
 * series met again later in the stream is merged over what was written of it.
 */
export async function replacePnlPoints(
  tx: StoreTransaction,
  resolution: "hour" | "day" | "both",
  wallets: readonly string[] | "all",
  rows: Iterable<PnlPointRow>,
): Promise<void> {
  await deletePnlSeries(tx, resolution === "both" ? ["hour", "day"] : [resolution], wallets);
  const written = new Set<string>();
  const again = new Map<string, SeriesWrite>();
  let packed: PackedWrite[] = [];
  let group: { wallet: string; series: "hour" | "day"; points: SeriesPoint[] } | undefined;
  const close = async () => {
    if (!group) return;
    const { wallet, series } = group;
    const key = `${series}:${wallet}`;
    const points = inTimeOrder(group.points);
    group = undefined;
    if (written.has(key)) {
      again.set(key, { wallet, series, points: mergeSeries(again.get(key)?.points ?? [], points) });
      return;
    }
    written.add(key);
    packed.push({ wallet, series, bytes: encodeSeries(points, PNL_SERIES[series].scale) });
    if (packed.length < STREAMED_SERIES) return;
    await writePacked(tx, packed);
    packed = [];
  };
  for (const { wallet, resolution: series, t, pnl } of rows) {
    if (group?.wallet !== wallet || group.series !== series) {
      await close();
      group = { wallet, series, points: [] };
    }
    group.points.push({ t, pnl });
  }
  await close();
  await writePacked(tx, packed);
  await writeSeries(tx, [...again.values()], "merge");
}

/** Deletes the given wallets' (or every wallet's) series of the named kinds. */
export async function deletePnlSeries(
  tx: StoreTransaction,
  series: readonly PnlSeriesName[],
  wallets: readonly string[] | "all",
): Promise<void> {
  const codes = `(${series.map((s) => PNL_SERIES[s].code).join(", ")})`;
  if (wallets === "all") {
    await queryRows(tx.db, tx.kind, `delete from ${PNL_SERIES_TABLE} where series in ${codes}`);
    return;
  }
  for (const slice of chunks(wallets, WALLETS_PER_STATEMENT))
    await queryRows(
      tx.db,
      tx.kind,
      `delete from ${PNL_SERIES_TABLE} where series in ${codes}
        and wallet_id in (select id from ${ADDRESSES} where ${ADDRESS} in ${placeholders(slice.length)})`,
      slice,
    );
}

/** Drops every wallet's points of a series older than `before` (the hourly window moving on), a page of wallets at a time. */
export async function prunePnlSeries(tx: StoreTransaction, series: PnlSeriesName, before: number): Promise<void> {
  const { scale } = PNL_SERIES[series];
  let writes: SeriesWrite[] = [];
  for await (const { wallet, points } of everyPacked(tx, series)) {
    let first = before;
    visitSeries(points, scale, (t) => {
      first = t;
      return false;
    });
    if (first >= before) continue;
    writes.push({ wallet, series, points: decodeSeries(points, scale).filter((p) => p.t >= before) });
    if (writes.length < WALLETS_PER_STATEMENT) continue;
    await writeSeries(tx, writes, "replace");
    writes = [];
  }
  await writeSeries(tx, writes, "replace");
}

/** The venue's curve of a wallet, as its sync replaces it (micro-USD values; a time listed twice kept once, the last). */
export function replaceVenuePnlSeries(
  tx: StoreTransaction,
  wallet: string,
  points: readonly SeriesPoint[],
): Promise<void> {
  return writeSeries(tx, [{ wallet, series: "venue", points: mergeSeries([], points) }], "replace");
}
