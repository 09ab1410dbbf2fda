/** The MCP tools about markets, the whales across them, the leaderboards and the territory monitor. */
import { cents, listing, percent, usd, when, who } from "./text.js";
import { tool } from "./tool-spec.js";

export const MARKET_TOOLS = [
  tool({
    name: "whale_leaderboard",
    title: "Whale leaderboard",
    purpose:
      "Smart Money wallets ranked by P&L, win rate, volume or trades, with filters (category, minimum markets, win rate, P&L, profit factor); filter=all for everyone.",
    route: "/api/v2/whales/leaderboard",
    list: "whales",
    summarize: (body) =>
      listing(
        `Leaderboard by ${body.sort} (${body.total} wallets)`,
        body.whales.map(
          (w, i) =>
            `#${body.offset + i + 1} ${who(w.wallet, w.name)}: P&L ${usd(w.total_pnl)}, win rate ${percent(w.win_rate)} over ${w.resolved_markets} markets, profit factor ${w.profit_factor}, main category ${w.main_category ?? "n/a"}`,
        ),
      ),
  }),
  tool({
    name: "trader_leaderboard",
    title: "Traders of a period",
    purpose: "The public leaderboard: traders by P&L over 24h, 7d, 30d or all time, Smart Money or everyone.",
    route: "/api/leaderboard",
    list: "traders",
    summarize: (body) =>
      listing(
        `Top traders, ${body.period} (${body.filter})`,
        body.traders.map(
          (t) =>
            `${who(t.wallet, t.display_name)}: P&L ${usd(t.total_pnl)}, win rate ${percent(t.win_rate)}, ROI ${percent(t.roi)}${t.is_smart ? ", Smart Money" : ""}`,
        ),
      ),
  }),
  tool({
    name: "search_markets",
    title: "Search markets",
    purpose:
      "Markets by words, a venue URL or slug, category, volume, whale count, days left or price range, with their prices and whale head-counts per side.",
    route: "/api/v2/markets/search",
    list: "markets",
    summarize: (body) =>
      listing(
        `Markets (${body.total} match)`,
        body.markets.map(
          (m) =>
            `${m.question} [id ${m.id}, condition ${m.condition_id}]: YES ${cents(m.price_yes)}, volume ${usd(m.volume)}, whales YES ${m.whales_yes} / NO ${m.whales_no}${m.closed ? ", closed" : ""}`,
        ),
      ),
  }),
  tool({
    name: "market_consensus",
    title: "Market consensus and top traders",
    purpose:
      "A market's prices, the Smart Money consensus (whales and USD per side, each team's members) and its top traders per side.",
    route: "/api/v2/market/{market_id}",
    summarize: ({ market, prices, consensus, top_traders }) => {
      const team = (rows: typeof consensus.yes_team) =>
        rows.slice(0, 5).map((r) => `${who(r.wallet, r.name)} ${usd(r.cost)}`);
      return [
        `${market.question} [id ${market.id}]: YES ${cents(prices.yes)}, NO ${cents(prices.no)}.`,
        `Smart Money: ${consensus.whales.yes} on YES (${usd(consensus.yes_invested)}), ${consensus.whales.no} on NO (${usd(consensus.no_invested)}); YES share ${percent(consensus.whales.yes_pct)}.`,
        listing("YES team, largest first", team(consensus.yes_team)),
        listing("NO team, largest first", team(consensus.no_team)),
        `Top traders: ${top_traders.yes.length} on YES, ${top_traders.no.length} on NO (in the answer).`,
      ].join("\n");
    },
  }),
  tool({
    name: "hot_markets",
    title: "Hot markets",
    purpose: "Markets ranked by how many Smart Money trades they drew in the last minutes.",
    route: "/api/v2/markets/hot",
    list: "markets",
    summarize: (body) =>
      listing(
        `Hot markets, last ${body.minutes} minutes`,
        body.markets.map(
          (m) =>
            `${m.question} [id ${m.id}]: ${m.whale_trades} whale trades by ${m.whale_wallets} whales, ${usd(m.whale_volume)}, YES ${cents(m.price_yes)}`,
        ),
      ),
  }),
  tool({
    name: "whale_alerts",
    title: "Whale alerts (Premium)",
    purpose:
      "The whales' fills of the last minutes (up to 1,440), newest first; filter by wallet(s), market, category, minimum USD.",
    route: "/api/v2/whale-alerts",
    list: "alerts",
    summarize: (body) =>
      listing(
        `Whale fills of the last ${body.minutes} minutes of at least ${usd(body.min_usd)}`,
        body.alerts.map(
          (a) =>
            `${when(a.timestamp)} ${who(a.wallet, a.name)} ${a.direction} ${a.side} ${usd(a.usd_amount)} @ ${cents(a.price)} in ${a.question}`,
        ),
      ),
  }),
  tool({
    name: "big_positions",
    title: "Big whale positions (Premium)",
    purpose: "The whales' open positions of at least min_usd at cost, one per wallet and market, largest first.",
    route: "/api/v2/whale-alerts/big-positions",
    list: "items",
    summarize: (body) =>
      listing(
        `Whale positions of at least ${usd(body.min_usd)} (${body.total} in all)`,
        body.items.map(
          (p) =>
            `${who(p.wallet, p.wallet_name)}: ${p.side} in ${p.market_title}, cost ${usd(p.cost_basis)} @ ${cents(p.avg_price)}, now ${cents(p.current_price)}, P&L ${usd(p.unrealized_pnl)}`,
        ),
      ),
  }),
  tool({
    name: "whale_flips",
    title: "Whale flips (Premium)",
    purpose: "Whales whose net position in a market changed side since a daily snapshot `days` back, by a large swing.",
    route: "/api/v2/whale-flips",
    list: "flips",
    summarize: (body) =>
      listing(
        `Flips since ${body.comparison_date ?? "n/a"} (swing at least ${usd(body.min_swing_usd)})`,
        body.flips.map(
          (f) =>
            `${who(f.wallet, f.display_name)}: ${f.old_side} ${usd(f.old_size_usd)} → ${f.new_side} ${usd(f.new_size_usd)} in ${f.question ?? f.market_id}`,
        ),
      ),
  }),
  tool({
    name: "conviction_clusters",
    title: "Conviction clusters (Premium)",
    purpose: "Events where several whales stand on the same side of at least two of its markets.",
    route: "/api/v2/conviction-clusters",
    list: "clusters",
    summarize: (body) =>
      listing(
        `Clusters of at least ${body.min_whales} whales`,
        body.clusters.map(
          (c) =>
            `${c.event_title ?? c.event_slug} — ${c.side}: ${c.whale_count} whales over ${c.market_count} markets, ${usd(c.total_capital_usd)}`,
        ),
      ),
  }),
  tool({
    name: "territory_status",
    title: "Territory monitor status",
    purpose: "The territory-control monitor at a glance: cities, subscriptions, captured ones, counts by threat level.",
    route: "/api/v2/isw/status-summary",
    summarize: (body) => {
      const threats = Object.entries(body.threats_by_subscription)
        .map(([level, count]) => `${level} ${count}`)
        .join(", ");
      return `Territory monitor${body.stale ? " (stale)" : ""}, as of ${body.as_of}: ${body.total_cities} cities, ${body.total_subscriptions} subscriptions, ${body.captured_subscriptions} captured. By threat: ${threats}.`;
    },
  }),
  tool({
    name: "territory_events",
    title: "Territory events",
    purpose: "The territory monitor's events (captures, threat changes) of the last hours, by city or severity.",
    route: "/api/v2/isw/events",
    list: "events",
    summarize: (body) =>
      listing(
        "Territory events, newest first",
        body.events.map((e) => `${e.timestamp} ${e.city}: ${e.event_type} (${e.severity}) — ${e.details}`),
      ),
  }),
];
