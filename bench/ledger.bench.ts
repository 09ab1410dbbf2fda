/**
 * Ledger speed and memory:
 *   node --import tsx --expose-gc bench/ledger.bench.ts [--fills 3000000] [--wallets 60000] [--markets 20000]
 * (10 million fills: add --max-old-space-size=8000).
 *
 * Builds a seeded synthetic stream in memory, shaped like the simulated world (src/sim): wallets of the venue's
 * archetypes, each following a set of markets drawn by popularity, market makers and bots making most fills;
 * log-normal sizes around each wallet's typical fill, sells only of shares held, mostly MINT buys, fees on a
 * third of fills, about 1.5% splits, merges, NegRisk conversions and rewards, redemptions once half of the
 * markets have resolved on the way. The stream is kept columnar (typed arrays and string pools) and fed to
 * `apply` one decoded row at a time, as a cursor over the fills table would; a second figure replays an
 * array of event objects.
 *
 * It prints the one-pass replay rate in time order and in wallet order (how a rebuild should read the fills
 * table: ORDER BY wallet, ts), checks both give the same ledger, then the cost of one incremental update on
 * the warm state, of a wallet's statistics, and memory. The ledger is single-threaded: rates are per
 * CPU-second of the process (garbage-collector threads included), with wall-clock rates beside them.
 */
import { performance } from "node:perf_hooks";
import { loadConfig } from "../src/config/index.js";
import { positionRows } from "../src/derive/ledger-rows.js";
import {
  LedgerState,
  assessWallet,
  replay,
  type LedgerActivity,
  type LedgerEvent,
  type LedgerFill,
  type MarketFacts,
} from "../src/ledger/index.js";

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2)
  args.set(process.argv[i]!.replace(/^--/, ""), process.argv[i + 1] ?? "");
const FILLS = Number(args.get("fills") ?? 3_000_000);
const WALLETS = Number(args.get("wallets") ?? 60_000);
const MARKETS = Number(args.get("markets") ?? 20_000);
const T0 = 1_767_225_600;
const HORIZON = 180 * 86_400;
const AS_OF = T0 + HORIZON + 1;

/** mulberry32: small, fast, seeded. */
let seed = 42;
function random(): number {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
}
const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");
const zipf = (n: number, skew: number) => Math.floor(n * random() ** skew);
const gauss = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
const gc = (globalThis as { gc?: () => void }).gc;
const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Activity profile per archetype, after src/sim/world/population.ts: share of wallets, fill activity, markets followed, typical fill (USD). */
const PROFILES = [
  { share: 0.76, activity: 1.6, markets: [1, 12], usd: [8, 80] }, // retail
  { share: 0.15, activity: 2.6, markets: [5, 40], usd: [30, 3_000] }, // noise
  { share: 0.03, activity: 2.2, markets: [70, 140], usd: [150, 3_000] }, // skilled
  { share: 0.02, activity: 3, markets: [30, 90], usd: [300, 5_000] }, // favourite farmer
  { share: 0.012, activity: 17, markets: [25, 80], usd: [3, 12] }, // volume bot
  { share: 0.01, activity: 50, markets: [100, 200], usd: [200, 2_000] }, // market maker
  { share: 0.016, activity: 4, markets: [6, 15], usd: [100, 1_500] }, // wash trader
  { share: 0.022, activity: 2.2, markets: [12, 35], usd: [25_000, 150_000] }, // whales
  { share: 0.012, activity: 2.5, markets: [4, 10], usd: [300, 3_000] }, // NegRisk converter
] as const;
const ENTRY_TYPES = ["MINT", "MERGE", "COMPLEMENTARY", null] as const;

/** The stream, columnar: row i is a fill unless `activity[i] >= 0`, an index into `activities`. */
interface Stream {
  wallet: Int32Array;
  market: Int32Array;
  outcome: Uint8Array;
  sell: Uint8Array;
  entry: Uint8Array;
  size: Float64Array;
  usd: Float64Array;
  fee: Float64Array;
  ts: Float64Array;
  activity: Int32Array;
  length: number;
}

function buildWorld() {
  const wallets = Array.from({ length: WALLETS }, (_, i) => `0x${hex(i + 1, 40)}`);
  const markets: MarketFacts[] = [];
  const eventOf: Array<string | null> = [];
  for (let m = 0; m < MARKETS; ) {
    const negRisk = random() < 0.3;
    const count = negRisk ? 2 + Math.floor(random() * 9) : 1;
    const id = `0x${hex(m + 1, 64)}`;
    for (let q = 0; q < count && m < MARKETS; q++, m++) {
      const resolves = random() < 0.5;
      markets.push({
        conditionId: `0x${hex(Math.floor(random() * 2 ** 48), 12)}${hex(m + 1, 52)}`,
        yesTokenId: String(BigInt(m + 1) * 1_000_003n * 10n ** 60n),
        noTokenId: String(BigInt(m + 1) * 1_000_033n * 10n ** 60n),
        category: ["Sports", "Crypto", "Politics", "Geopolitics", "Economics", "Tech", "Culture"][
          Math.floor(random() * 7)
        ]!,
        eventId: id,
        negRiskEventId: negRisk ? id : null,
        questionIndex: negRisk ? q : null,
        questionCount: negRisk ? count : null,
        resolution: resolves ? (random() < 0.5 ? "YES" : "NO") : null,
        resolvedAt: resolves ? T0 + Math.floor(random() * HORIZON) : null,
        priceYes: 0.05 + 0.9 * random(),
      });
      eventOf.push(negRisk ? id : null);
    }
  }

  const followed: number[][] = [];
  const medianUsd = new Float64Array(WALLETS);
  const cumulative = new Float64Array(WALLETS);
  let total = 0;
  for (let w = 0; w < WALLETS; w++) {
    let u = random();
    const profile = PROFILES.find((p) => (u -= p.share) < 0) ?? PROFILES[0];
    const count = profile.markets[0] + Math.floor(random() * (profile.markets[1] - profile.markets[0] + 1));
    followed.push(Array.from({ length: count }, () => zipf(MARKETS, 1.6)));
    medianUsd[w] = profile.usd[0] * (profile.usd[1] / profile.usd[0]) ** random();
    total += profile.activity * Math.exp(0.8 * gauss());
    cumulative[w] = total;
  }
  const pickWallet = () => {
    const x = random() * total;
    let lo = 0;
    let hi = WALLETS - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  const capacity = Math.ceil(FILLS * 1.2);
  const s: Stream = {
    wallet: new Int32Array(capacity),
    market: new Int32Array(capacity),
    outcome: new Uint8Array(capacity),
    sell: new Uint8Array(capacity),
    entry: new Uint8Array(capacity),
    size: new Float64Array(capacity),
    usd: new Float64Array(capacity),
    fee: new Float64Array(capacity),
    ts: new Float64Array(capacity),
    activity: new Int32Array(capacity).fill(-1),
    length: 0,
  };
  const activities: LedgerActivity[] = [];
  const held = new Map<number, number>();
  const redeemed = new Set<number>();
  let fills = 0;
  while (fills < FILLS && s.length < capacity) {
    const ts = T0 + Math.floor((fills / FILLS) * HORIZON);
    const w = pickWallet();
    const wallet = wallets[w]!;
    const m = followed[w]![Math.floor(random() * followed[w]!.length)]!;
    const facts = markets[m]!;
    const roll = random();
    const row = s.length;
    s.wallet[row] = w;
    s.ts[row] = ts;
    if (facts.resolvedAt !== null && facts.resolvedAt < ts) {
      // No trading after the resolution; most holders redeem once.
      const key = w * MARKETS + m;
      if (redeemed.has(key) || !(held.get(key * 2) || held.get(key * 2 + 1)) || roll >= 0.9) continue;
      redeemed.add(key);
      s.activity[row] =
        activities.push({
          kind: "activity",
          type: "REDEEM",
          wallet,
          conditionId: facts.conditionId,
          payoutYes: null,
          ts,
        }) - 1;
      s.length++;
      continue;
    }
    if (roll < 0.015) {
      const amount = 1_000_000 * (1 + Math.floor(random() * 300));
      const event = eventOf[m];
      let activity: LedgerActivity;
      if (roll < 0.005)
        activity = { kind: "activity", type: "SPLIT", wallet, conditionId: facts.conditionId, amount, ts };
      else if (roll < 0.008)
        activity = { kind: "activity", type: "MERGE", wallet, conditionId: facts.conditionId, amount, ts };
      else if (roll < 0.011 && event)
        activity = {
          kind: "activity",
          type: "CONVERSION",
          wallet,
          negRiskEventId: event,
          indexSet: [0],
          amount,
          fee: 0,
          ts,
        };
      else activity = { kind: "activity", type: "REWARD", wallet, usd: Math.floor(random() * 20_000_000), ts };
      s.activity[row] = activities.push(activity) - 1;
      s.length++;
      continue;
    }
    const outcome = random() < 0.5 ? 0 : 1;
    const key = (w * MARKETS + m) * 2 + outcome;
    const holding = held.get(key) ?? 0;
    const priceMicro = 10_000 + Math.floor(random() * 980_000);
    const selling = holding > 0 && random() < 0.45;
    const wanted = Math.max(1_000, Math.floor(((medianUsd[w]! * Math.exp(0.7 * gauss())) / (priceMicro / 1e6)) * 1e6));
    const size = selling ? Math.min(holding, wanted) : wanted;
    held.set(key, holding + (selling ? -size : size));
    const usd = Math.floor((size * priceMicro) / 1_000_000);
    const entry = random();
    s.market[row] = m;
    s.outcome[row] = outcome;
    s.sell[row] = selling ? 1 : 0;
    s.entry[row] = selling ? (entry < 0.15 ? 1 : entry < 0.95 ? 2 : 3) : entry < 0.75 ? 0 : entry < 0.95 ? 2 : 3;
    s.size[row] = size;
    s.usd[row] = usd;
    s.fee[row] = random() < 0.33 ? Math.floor(usd * 0.04 * (priceMicro / 1e6) * (1 - priceMicro / 1e6)) : 0;
    s.length++;
    fills++;
  }
  return { wallets, markets, stream: s, activities, fills };
}

/** The stream with its rows ordered by (wallet, time), stored in that order. */
function walletOrdered(s: Stream): Stream {
  const order = Int32Array.from({ length: s.length }, (_, i) => i).sort((a, b) => s.wallet[a]! - s.wallet[b]! || a - b);
  const take = <T extends Int32Array | Uint8Array | Float64Array>(column: T): T => {
    const out = column.slice(0, s.length) as T;
    order.forEach((from, to) => (out[to] = column[from]!));
    return out;
  };
  return {
    wallet: take(s.wallet),
    market: take(s.market),
    outcome: take(s.outcome),
    sell: take(s.sell),
    entry: take(s.entry),
    size: take(s.size),
    usd: take(s.usd),
    fee: take(s.fee),
    ts: take(s.ts),
    activity: take(s.activity),
    length: s.length,
  };
}

const world = buildWorld();
const { wallets, markets, activities } = world;
const tokenIds = markets.flatMap((m) => [m.yesTokenId!, m.noTokenId!]);

/** Row i as an event: fills are decoded into one reused object, as a cursor hands out rows. */
function feed(state: LedgerState, s: Stream, from = 0, to = s.length, shiftTs = 0): void {
  const row = {
    kind: "fill",
    wallet: "",
    tokenId: "",
    conditionId: "",
    outcomeIndex: 0,
    side: "BUY",
    size: 0,
    usd: 0,
    price: 0,
    fee: 0,
    ts: 0,
    entryType: null,
  } as {
    -readonly [K in keyof LedgerFill]: LedgerFill[K];
  };
  for (let i = from; i < to; i++) {
    const a = s.activity[i]!;
    if (a >= 0) {
      state.apply(activities[a]!);
      continue;
    }
    const m = s.market[i]!;
    const outcome = s.outcome[i]! as 0 | 1;
    row.wallet = wallets[s.wallet[i]!]!;
    row.conditionId = markets[m]!.conditionId;
    row.tokenId = tokenIds[m * 2 + outcome]!;
    row.outcomeIndex = outcome;
    row.side = s.sell[i] ? "SELL" : "BUY";
    row.size = s.size[i]!;
    row.usd = s.usd[i]!;
    row.price = row.usd / row.size;
    row.fee = s.fee[i]!;
    row.ts = s.ts[i]! + shiftTs;
    row.entryType = ENTRY_TYPES[s.entry[i]!]!;
    state.apply(row);
  }
}

function measure<T>(run: () => T): { result: T; wallMs: number; cpuMs: number } {
  gc?.();
  const cpu = process.cpuUsage();
  const start = performance.now();
  const result = run();
  const used = process.cpuUsage(cpu);
  return { result, wallMs: performance.now() - start, cpuMs: (used.user + used.system) / 1000 };
}

/** An order-free digest of every position row and every wallet's days, to compare two ledgers. */
function digest(state: LedgerState): string {
  let count = 0;
  let sum = 0;
  let squares = 0;
  const add = (text: string) => {
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
    count++;
    sum = (sum + h) % 2 ** 52;
    squares = (squares + ((h * h) % 2 ** 40)) % 2 ** 52;
  };
  for (const row of positionRows(state)) add(JSON.stringify(row));
  for (const book of state.wallets()) add(book.address + JSON.stringify([...book.days.entries()]));
  return `${count}/${sum}/${squares}`;
}

/** Best of three rebuilds (replay's own loop: a state, every row applied, resolutions swept to AS_OF). */
function rebuild(s: Stream) {
  let best: { result: LedgerState; wallMs: number; cpuMs: number } | undefined;
  for (let run = 0; run < 3; run++) {
    const m = measure(() => {
      // A rebuild can size its tables from the positions table it replaces; here an estimate of one per 2 fills.
      const state = new LedgerState(markets, { positions: Math.ceil(world.fills / 2), wallets: WALLETS });
      feed(state, s);
      state.advanceTo(AS_OF);
      return state;
    });
    if (!best || m.cpuMs < best.cpuMs) best = m;
  }
  return best!;
}

const memoryMb = () => {
  gc?.();
  const m = process.memoryUsage();
  return (m.heapUsed + m.arrayBuffers) / 2 ** 20;
};
const rate = (count: number, ms: number) => fmt(count / (ms / 1000));
const events = world.stream.length;
console.log(
  `stream: ${fmt(world.fills)} fills + ${fmt(events - world.fills)} activities of ${fmt(WALLETS)} wallets on ${fmt(MARKETS)} markets`,
);

const inTime = rebuild(world.stream);
console.log(
  `replay in time order:   ${rate(world.fills, inTime.cpuMs)} fills per CPU-second (${rate(events, inTime.cpuMs)} events; wall ${rate(events, inTime.wallMs)} events/s)`,
);
const timeDigest = digest(inTime.result);
inTime.result = undefined as unknown as LedgerState;

const byWallet = walletOrdered(world.stream);
const inWalletOrder = rebuild(byWallet);
const state = inWalletOrder.result;
const same = digest(state) === timeDigest;
console.log(
  `replay in wallet order: ${rate(world.fills, inWalletOrder.cpuMs)} fills per CPU-second (${rate(events, inWalletOrder.cpuMs)} events; wall ${rate(events, inWalletOrder.wallMs)} events/s); ` +
    `positions identical to time order: ${same ? "yes" : "NO"}`,
);

const positions = state.positions.count;
{
  // Memory of one state grown on the way (no size hint): position and wallet tables, day logs, indexes.
  const before = memoryMb();
  const grown = new LedgerState(markets);
  feed(grown, byWallet);
  grown.advanceTo(AS_OF);
  const stateMb = memoryMb() - before;
  console.log(
    `ledger state: ${fmt(positions)} positions of ${fmt(grown.walletTable.count)} wallets in ${fmt(stateMb)} MB (${fmt((stateMb * 2 ** 20) / positions)} bytes a position, with wallet records, day logs and indexes)`,
  );
}

// The same replay from an array of event objects held in memory (garbage collection of that array included).
const objects: LedgerEvent[] = [];
const collect = { apply: (e: LedgerEvent) => objects.push(e.kind === "fill" ? { ...e } : e) } as unknown as LedgerState;
feed(collect, byWallet);
const fromObjects = measure(() => replay(objects, markets, AS_OF));
console.log(
  `replay of ${fmt(objects.length)} event objects in wallet order: ${rate(world.fills, fromObjects.cpuMs)} fills per CPU-second (wall ${rate(events, fromObjects.wallMs)} events/s)`,
);
objects.length = 0;

// Incremental: apply on the warm state, one row at a time in time order (random wallets), after the replayed horizon.
const sample = Math.min(300_000, world.stream.length);
const incremental = measure(() => feed(state, world.stream, 0, sample, HORIZON + 10));
const single: number[] = [];
for (let i = sample; i < sample + 20_000 && i < world.stream.length; i++) {
  const start = process.hrtime.bigint();
  feed(state, world.stream, i, i + 1, HORIZON + 10);
  single.push(Number(process.hrtime.bigint() - start));
}
single.sort((a, b) => a - b);
console.log(
  `incremental apply on the warm state: ${fmt((incremental.cpuMs * 1e6) / sample)} ns CPU per event (time order, random wallets); ` +
    `one at a time: p50 ${fmt(single[single.length >> 1]!)} ns, p99 ${fmt(single[Math.floor(single.length * 0.99)]!)} ns wall`,
);

const config = (() => {
  const { ledger, farmer, smart } = loadConfig({});
  return { ledger, farmer, smart };
})();
const now = AS_OF + 2 * HORIZON;
const stats = measure(() => wallets.map((w) => assessWallet(state, w, { now }, config)).filter((a) => a !== undefined));
const heaviest = [...state.wallets()].sort((a, b) => b.positionCount - a.positionCount)[0]!;
const heavy = measure(() => assessWallet(state, heaviest.address, { now }, config));
console.log(
  `wallet statistics: ${fmt((stats.cpuMs * 1000) / stats.result.length, 1)} µs CPU per wallet over ${fmt(stats.result.length)} wallets; ` +
    `heaviest (${fmt(heaviest.positionCount)} positions, ${fmt(heaviest.trades)} fills): ${fmt(heavy.cpuMs, 2)} ms`,
);
console.log(
  `memory: rss ${fmt(process.memoryUsage().rss / 2 ** 20)} MB${gc ? "" : " (run with --expose-gc for exact figures)"}`,
);
