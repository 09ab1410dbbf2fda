/**
 * What the Premium whale routes read, per API process: the Smart Money roster, the in-memory copy of the last 48 h
 * of smart-whale fills (alerts, their summary, recent trades), the copy of the smart whales' open positions (big
 * positions, conviction clusters, whale flips) and the market index that names their markets.
 */
import type { Config } from "../../config/index.js";
import type { BackgroundWork } from "../../platform/background-work.js";
import type { Platform } from "../../platform/index.js";
import type { Store } from "../../store/database.js";
import { marketIndex, type MarketIndex } from "../markets/market-index.js";
import { SmartHoldings } from "./smart-holdings.js";
import { SmartRoster } from "./smart-roster.js";
import { WhaleFillWindow } from "./whale-fill-window.js";

export interface WhaleReadsDeps {
  readonly store: Store;
  readonly platform: Platform;
  readonly config: Config;
  /** Where the copies reload in the background: closing the app waits for it. */
  readonly background: BackgroundWork;
}

export class WhaleReads {
  readonly roster: SmartRoster;
  readonly fills: WhaleFillWindow;
  readonly holdings: SmartHoldings;

  constructor(readonly deps: WhaleReadsDeps) {
    const { store, platform, config, background } = deps;
    this.roster = new SmartRoster(store);
    const copies = { store, roster: this.roster, clock: platform.clock, background };
    this.fills = new WhaleFillWindow(copies, config.whaleReads.alertsRefreshSeconds);
    this.holdings = new SmartHoldings(copies, config.whaleReads.holdingsRefreshSeconds);
  }

  get store(): Store {
    return this.deps.store;
  }

  now(): number {
    return this.deps.platform.clock.now();
  }

  markets(): Promise<MarketIndex> {
    const { store, platform, config, background } = this.deps;
    return marketIndex(store, platform.clock, config.markets.indexRefreshSeconds, background);
  }

  /** Drops every copy (readiness turned on): what was read from a store still filling is not kept. */
  forget(): void {
    this.roster.forget();
    this.fills.forget();
    this.holdings.forget();
  }
}
