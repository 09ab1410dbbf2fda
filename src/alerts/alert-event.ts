/**
 * An alert as stored with its delivery and sent to a webhook: the rule that matched, the trade (wallet, market,
 * side, outcome, size, price, USD) and links to the dashboard's wallet and market pages. The chat formatters
 * (formatters.ts) write it for their platform.
 */
import type { RuleKind } from "./tables.js";

export interface AlertTrade {
  readonly wallet: string;
  readonly side: "BUY" | "SELL";
  readonly outcome: string;
  /** Shares. */
  readonly shares: number;
  readonly price: number;
  readonly usd: number;
  readonly condition_id: string;
  readonly market_id: string | null;
  readonly market_question: string | null;
  readonly category: string | null;
  readonly tx_hash: string;
  /** Unix seconds of the fill. */
  readonly ts: number;
}

/** A territory monitor's event (as /api/v2/isw/events lists it). */
export interface TerritoryFacts {
  readonly id: number;
  readonly city: string;
  readonly event_type: string;
  readonly severity: string;
  readonly previous_severity: string | null;
  readonly subscription_label: string;
  readonly details: string;
  /** Unix seconds. */
  readonly created_at: number;
}

/** A market's Smart Money consensus that changed side. */
export interface ConsensusFacts {
  readonly condition_id: string;
  readonly market_id: string | null;
  readonly market_question: string | null;
  readonly from: "YES" | "NO";
  readonly to: "YES" | "NO";
  readonly whales_yes: number;
  readonly whales_no: number;
  /** Unix seconds: when the change was seen. */
  readonly at: number;
}

/** A bet that reached a rule's insider score (src/ledger/insider-score.ts). */
export interface InsiderFacts {
  readonly wallet: string;
  readonly condition_id: string;
  readonly market_id: string | null;
  readonly market_question: string | null;
  readonly category: string | null;
  readonly outcome: "YES" | "NO";
  readonly score: number;
  readonly confidence: number;
  readonly bet_usd: number;
  readonly avg_price: number;
  readonly cluster_id: string | null;
  /** Unix seconds: the bet's last fill. */
  readonly last_ts: number;
}

export interface AlertEvent {
  readonly type: `alert.${RuleKind}` | "alert.test";
  readonly rule: { readonly id: number; readonly name: string; readonly kind: RuleKind } | null;
  /** The trade; null for a territory event. */
  readonly trade: AlertTrade | null;
  /** territory_event: the event. */
  readonly territory?: TerritoryFacts;
  /** consensus_flip: the market and its sides. */
  readonly consensus?: ConsensusFacts;
  /** insider_alert: the bet and its score. */
  readonly insider?: InsiderFacts;
  /** The dashboard's pages: the trade's wallet and market, or the territory page. */
  readonly links: { readonly wallet: string | null; readonly market: string | null; readonly territory?: string };
  /** price_move: the market's YES price moved from → to within the rule's window (the trade is the one that moved it). */
  readonly move?: { readonly from: number; readonly to: number; readonly window_minutes: number };
  /** True for a test fire: a sample trade, not a real one. */
  readonly test: boolean;
  /** A rule of webhook_format `isw` (a territory registration): the exact body its webhooks are sent. */
  readonly webhook_body?: string;
}

/** The dashboard's pages of a trade's wallet and market (its routes are the URL's hash: web/src/router.ts). */
export function alertLinks(dashboardUrl: string, wallet: string, marketId: string | null) {
  const root = dashboardUrl.replace(/\/+$/, "");
  return {
    wallet: `${root}/#/wallet/${wallet}`,
    market: marketId === null ? null : `${root}/#/market/${encodeURIComponent(marketId)}`,
  };
}
