/**
 * The aggregates computed once per clock window from the store alone (site, home and analytics figures), by name:
 * what each one is, how long its window is, and how it is computed. Their reads walk every smart whale or every
 * hour of a day, 0.1-0.8 s each on the 10,000,000-fill world; the service computes them in a thread of its own
 * (src/runtime/aggregates-worker.ts) so that none of it holds the event loop that answers requests, and tests
 * (or AGGREGATES_WORKER=false) compute them in the serving thread (InThreadAggregates).
 */
import type { Config } from "../../config/index.js";
import type { Store } from "../../store/database.js";
import { whaleClusters } from "./clusters.js";
import { allConvictionClusters } from "../whales/conviction-clusters.js";
import { smartMoneyFlow, whaleVolume24h } from "./flows.js";
import { categoryRotation, hotMarketsByVolume, topWhales, whaleMoves } from "./home.js";
import { loadMarketIndex } from "../markets/market-index.js";
import { topMovers } from "./movers.js";
import { hotTraders, siteStats, thresholdsInForce } from "./site.js";
import { loadHoldingsView } from "../whales/smart-holdings.js";

const MINUTE = 60;
const FIVE_MINUTES = 300;
const HOUR = 3_600;
/** The most movers and clusters an answer may hold: each aggregate is computed for the largest `limit` once. */
export const MOVERS_MAX = 50;
export const CLUSTERS_MAX = 100;

interface WindowAggregate<T> {
  /** Computed again at every boundary of this clock window (seconds). */
  readonly windowSeconds: number;
  readonly compute: (store: Store, config: Config, now: number) => Promise<T>;
}

const aggregate = <T>(windowSeconds: number, compute: WindowAggregate<T>["compute"]): WindowAggregate<T> => ({
  windowSeconds,
  compute,
});

export const WINDOW_AGGREGATES = {
  "site:stats": aggregate(HOUR, async (store, config, now) => ({
    ...(await siteStats(store)),
    thresholds: thresholdsInForce(config),
    as_of: now,
  })),
  "site:hot-traders": aggregate(MINUTE, (store) => hotTraders(store)),
  "home:whale-moves": aggregate(MINUTE, (store, { boards }, now) =>
    whaleMoves(store, now, boards.whaleMoveMinUsd, boards.whaleMoveHours),
  ),
  "home:hot-markets": aggregate(MINUTE, (store, _config, now) => hotMarketsByVolume(store, now)),
  "home:top-whales": aggregate(FIVE_MINUTES, (store, { boards }, now) => topWhales(store, now, boards.topWhalesDays)),
  "home:category-rotation": aggregate(FIVE_MINUTES, (store, _config, now) => categoryRotation(store, now)),
  "analytics:flow": aggregate(FIVE_MINUTES, (store, _config, now) => smartMoneyFlow(store, now)),
  "analytics:movers": aggregate(FIVE_MINUTES, (store, { boards }, now) =>
    topMovers(store, now, boards.topMoversDays, MOVERS_MAX),
  ),
  "analytics:volume-24h": aggregate(MINUTE, (store, _config, now) => whaleVolume24h(store, now)),
  "analytics:clusters": aggregate(FIVE_MINUTES, (store, { whales }) =>
    whaleClusters(store, whales.clusterMinWhales, whales.consensusMinUsd, CLUSTERS_MAX),
  ),
  // Read afresh, not from the serving thread's copies: the positions and markets as they stand at the boundary.
  "conviction-clusters": aggregate(FIVE_MINUTES, async (store, { whales }, now) =>
    allConvictionClusters(await loadHoldingsView(store, now), await loadMarketIndex(store, now), {
      minTeamUsd: whales.consensusMinUsd,
      minMarkets: whales.clusterMinMarkets,
    }),
  ),
};

export type AggregateName = keyof typeof WINDOW_AGGREGATES;
export type AggregateValue<N extends AggregateName> = Awaited<ReturnType<(typeof WINDOW_AGGREGATES)[N]["compute"]>>;

/** Where the window aggregates are computed: in this thread, or in a worker thread (src/runtime/aggregates-worker.ts). */
export interface AggregateComputer {
  compute<N extends AggregateName>(name: N, now: number): Promise<AggregateValue<N>>;
  close(): Promise<void>;
}

export class InThreadAggregates implements AggregateComputer {
  constructor(
    private readonly store: Store,
    private readonly config: Config,
  ) {}

  compute<N extends AggregateName>(name: N, now: number): Promise<AggregateValue<N>> {
    return WINDOW_AGGREGATES[name].compute(this.store, this.config, now) as Promise<AggregateValue<N>>;
  }

  async close(): Promise<void> {}
}
