/**
 * A wallet's P&L series packed into bytes (issue 49, migration 0047): its points in time order, each a tag and at
 * most a value. The tag, a varint, is the time's step from the point before (from 0 for the first) times four
 * plus how the value is written:
 * - SAME: no value, the point before's again (a third of the hourly points: a wallet whose book did not move);
 * - SCALED: a zigzag varint, the value times the series' scale (1e6 for our USD series, 1 for the venue's micro-USD
 *   integers) less the last SCALED value's, where that round trip gives the value back exactly and the step's zigzag
 *   is a safe integer (`MAX_SCALED_STEP`);
 * - DOUBLE: the value's 8 bytes (an hourly valuation is any double).
 * Every value reads back exactly as written (`Object.is`), -0 and non-finite numbers included.
 */

export interface SeriesPoint {
  readonly t: number;
  readonly pnl: number;
}

const SAME = 0;
const SCALED = 1;
const DOUBLE = 2;
const MODES = 4;

/** The most bytes a point takes: a tag and a value, each at most 8 bytes (a varint of a safe integer, or a double). */
const MAX_POINT_BYTES = 16;
/** Where points are packed before their bytes are copied out (grown as a longer series asks). */
let scratch = Buffer.alloc(64 * 1024);

/** Writes a non-negative safe integer at `at` as a base-128 varint (arithmetic, not bitwise: past 2^31 too). */
function writeVarint(n: number, at: number): number {
  while (n >= 128) {
    scratch[at++] = (n % 128) + 128;
    n = Math.floor(n / 128);
  }
  scratch[at++] = n;
  return at;
}

const zigzag = (n: number): number => (n < 0 ? -2 * n - 1 : 2 * n);
/**
 * The largest step between two SCALED values whose zigzag a double holds exactly: past it (two safe integers of
 * opposite signs, each past 2^51) the value is written as a DOUBLE. A float subtraction of two safe integers is exact
 * below this bound, and rounds to at least it above, so the test on the computed step is exact.
 */
const MAX_SCALED_STEP = 2 ** 52 - 1;
const unzigzag = (n: number): number => (n % 2 === 1 ? -(n + 1) / 2 : n / 2);

/** The value as a scaled integer when that gives it back exactly, else undefined. */
function scaledOf(pnl: number, scale: number): number | undefined {
  if (Object.is(pnl, -0)) return undefined;
  const scaled = Math.round(pnl * scale);
  return Number.isSafeInteger(scaled) && scaled / scale === pnl ? scaled : undefined;
}

/** The points (in increasing time, integer times) as bytes; `scale` as the series' (see the header). */
export function encodeSeries(points: readonly SeriesPoint[], scale: number): Buffer {
  if (scratch.length < points.length * MAX_POINT_BYTES) scratch = Buffer.alloc(points.length * MAX_POINT_BYTES * 2);
  let at = 0;
  let previousT = 0;
  let previousPnl = 0;
  let lastScaled = 0;
  for (const { t, pnl } of points) {
    const step = t - previousT;
    if (!Number.isSafeInteger(t) || (at > 0 && step <= 0) || step < 0)
      throw new Error(`pnl series: time ${t} does not follow ${previousT}`);
    if (typeof pnl !== "number") throw new Error(`pnl series: the value at ${t} is not a number`);
    const scaledValue = Object.is(pnl, previousPnl) ? undefined : scaledOf(pnl, scale);
    const scaled =
      scaledValue !== undefined && Math.abs(scaledValue - lastScaled) <= MAX_SCALED_STEP ? scaledValue : undefined;
    const mode = Object.is(pnl, previousPnl) ? SAME : scaled !== undefined ? SCALED : DOUBLE;
    at = writeVarint(step * MODES + mode, at);
    if (mode === SCALED) {
      at = writeVarint(zigzag(scaled! - lastScaled), at);
      lastScaled = scaled!;
    } else if (mode === DOUBLE) at = scratch.writeDoubleLE(pnl, at);
    [previousT, previousPnl] = [t, pnl];
  }
  return Buffer.from(scratch.subarray(0, at));
}

/** Reads the points of `bytes` one at a time, in time order; stops where `visit` returns false. */
export function visitSeries(bytes: Uint8Array, scale: number, visit: (t: number, pnl: number) => boolean | void): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const varint = (): number => {
    let n = 0;
    let weight = 1;
    for (;;) {
      const byte = bytes[at++];
      if (byte === undefined) throw new Error("pnl series: bytes end inside a varint");
      n += (byte % 128) * weight;
      if (byte < 128) return n;
      weight *= 128;
    }
  };
  let t = 0;
  let pnl = 0;
  let lastScaled = 0;
  while (at < bytes.length) {
    const tag = varint();
    const mode = tag % MODES;
    t += (tag - mode) / MODES;
    if (mode === SCALED) {
      lastScaled += unzigzag(varint());
      pnl = lastScaled / scale;
    } else if (mode === DOUBLE) {
      if (at + 8 > bytes.length) throw new Error("pnl series: bytes end inside a value");
      pnl = view.getFloat64(at, true);
      at += 8;
    } else if (mode !== SAME) throw new Error(`pnl series: unknown value mode ${mode}`);
    if (visit(t, pnl) === false) return;
  }
}

export function decodeSeries(bytes: Uint8Array, scale: number): SeriesPoint[] {
  const points: SeriesPoint[] = [];
  visitSeries(bytes, scale, (t, pnl) => {
    points.push({ t, pnl });
  });
  return points;
}

/**
 * The latest point at or before each instant, in one pass that stops past the latest instant (a point made only
 * where an instant takes it: a leaderboard asks this of every wallet's daily series).
 */
export function packedPointsAt(
  bytes: Uint8Array,
  scale: number,
  instants: readonly number[],
): (SeriesPoint | undefined)[] {
  const found: (SeriesPoint | undefined)[] = instants.map(() => undefined);
  const order = instants.map((_, i) => i).sort((a, b) => instants[a]! - instants[b]!);
  let next = 0;
  let lastT = Number.NaN;
  let lastPnl = 0;
  const settleUpTo = (t: number) => {
    for (; next < order.length && t > instants[order[next]!]!; next++)
      if (!Number.isNaN(lastT)) found[order[next]!] = { t: lastT, pnl: lastPnl };
  };
  visitSeries(bytes, scale, (t, pnl) => {
    settleUpTo(t);
    if (next === order.length) return false;
    lastT = t;
    lastPnl = pnl;
  });
  settleUpTo(Number.POSITIVE_INFINITY);
  return found;
}

/** `stored` with `incoming` written over it: a point of the same time replaced, the rest kept, in time order. */
export function mergeSeries(stored: readonly SeriesPoint[], incoming: readonly SeriesPoint[]): SeriesPoint[] {
  const byTime = new Map<number, SeriesPoint>();
  for (const point of stored) byTime.set(point.t, point);
  for (const point of incoming) byTime.set(point.t, point);
  return [...byTime.values()].sort((a, b) => a.t - b.t);
}
