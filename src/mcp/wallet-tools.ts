/** The MCP tools about one wallet: who it is and how it does, what it holds and held, its moves, copy-trading aids. */
import { cents, listing, percent, usd, when, who } from "./text.js";
import { tool } from "./tool-spec.js";

export const WALLET_TOOLS = [
  tool({
    name: "wallet_search",
    title: "Find a wallet",
    purpose: "Find a wallet's address from a name, a pseudonym or the start of an address.",
    route: "/api/v2/wallet-search",
    list: "results",
    summarize: (body) =>
      listing(
        "Wallets found",
        body.results.map((r) => `${who(r.address, r.name)} [${r.source}]`),
      ),
  }),
  tool({
    name: "wallet_profile",
    title: "Wallet profile and statistics",
    purpose:
      "A wallet's profile and statistics: P&L, win rate, profit factor, volume, Smart Money and farmer classification, rankings, categories.",
    route: "/api/v2/wallet/{address}/overview",
    summarize: ({ profile, overview, stats, rankings }) => {
      const record =
        stats.wins === null
          ? `${stats.resolved} resolved`
          : `${stats.wins} won, ${stats.losses} lost of ${stats.resolved}`;
      const classes = [
        stats.is_smart ? "Smart Money" : "not Smart Money",
        ...(stats.is_farmer ? [`farmer (${stats.farmer_reason ?? "flagged"})`] : []),
        ...(stats.has_skill ? ["skill badge"] : []),
      ];
      return [
        `${who(profile.proxy_wallet, profile.name ?? profile.pseudonym)}: total P&L ${usd(stats.total_pnl)}, win rate ${percent(stats.win_rate)} (${record}), profit factor ${stats.profit_factor}.`,
        `${overview.total_trades} trades in ${overview.total_markets} markets, volume ${usd(overview.total_volume)}, last trade ${when(overview.last_trade)}; ${overview.active_count ?? "n/a"} open positions.`,
        `${classes.join("; ")}. ${rankings?.rank_pnl ? `Rank by P&L: ${rankings.rank_pnl} of ${rankings.total_traders}.` : "Not ranked."}`,
      ].join("\n");
    },
  }),
  tool({
    name: "wallet_open_positions",
    title: "Open positions",
    purpose: "A wallet's open positions, largest current value first, with entry price, current price and P&L.",
    route: "/api/v2/wallet/{address}/positions",
    list: "positions",
    summarize: (body) =>
      listing(
        `Open positions of ${body.address} (${body.total} in all)`,
        body.positions.map(
          (p) =>
            `${p.question} — ${p.outcome}: ${Math.round(p.tokens)} shares @ ${cents(p.avg_entry)}, now ${cents(p.current_price)}, value ${usd(p.current_value)}, P&L ${usd(p.pnl)} (${percent(p.pnl_pct)})`,
        ),
      ),
  }),
  tool({
    name: "wallet_closed_positions",
    title: "Closed positions",
    purpose:
      "A wallet's closed positions (sold, merged or resolved) with settled P&L; sort by recent, oldest, pnl, pnl_asc or size.",
    route: "/api/v2/wallet/{address}/closed",
    list: "closed",
    summarize: (body) =>
      listing(
        `Closed positions of ${body.address} (${body.total} in all, by ${body.sort})`,
        body.closed.map(
          (p) =>
            `${p.question} — ${p.outcome}: cost ${usd(p.buy_cost)} @ ${cents(p.avg_entry)}, ${p.result}, P&L ${usd(p.realized_pnl)} (${percent(p.pnl_pct)}), closed ${when(p.closed_ts)}`,
        ),
      ),
  }),
  tool({
    name: "wallet_changes_since",
    title: "What a wallet did since a moment",
    purpose:
      "A wallet's trades count, volume and P&L change since a moment (unix seconds, at most 30 days back), and its last move.",
    route: "/api/v2/wallet/{address}/changes-since",
    summarize: (body) => {
      const move = body.last_move;
      const last = move
        ? `Last move ${when(move.ts)}: ${move.action_label} for ${usd(move.usd)} in ${move.question ?? move.condition_id}.`
        : "No move in that time.";
      return `${body.address} since ${when(body.effective_since)}: ${body.trades_count} trades, volume ${usd(body.volume_usd)}, P&L change ${usd(body.pnl_delta)}. ${last}`;
    },
  }),
  tool({
    name: "wallet_recent_trades",
    title: "Recent trades (Premium)",
    purpose: "A wallet's recent raw fills, newest first: market, side, outcome, size, price, USD, entry type.",
    route: "/api/v2/wallet/{address}/trades",
    list: "trades",
    summarize: (body) =>
      listing(
        "Fills, newest first",
        body.trades.map(
          (t) =>
            `${when(t.timestamp)} ${t.side} ${t.outcome} ${Math.round(t.size)} @ ${cents(t.price)} = ${usd(t.usd_amount)} in ${t.title} (${t.entry_type ?? "unclassified"})`,
        ),
      ),
  }),
  tool({
    name: "similar_traders",
    title: "Similar traders",
    purpose: "Smart whales with the same main category as a wallet and positive P&L: who else trades like it.",
    route: "/api/v2/wallet/{address}/similar-traders",
    list: "similar",
    summarize: (body) =>
      listing(
        `Traders like ${body.wallet} (main category ${body.primary_category ?? "n/a"})`,
        body.similar.map(
          (s) =>
            `${who(s.wallet, s.name)}: P&L ${usd(s.total_pnl)}, win rate ${percent(s.win_rate)}, profit factor ${s.profit_factor}, ${s.overlap_label}`,
        ),
      ),
  }),
  tool({
    name: "whale_matches",
    title: "Whales a wallet trades with",
    purpose: "The Smart Money whales sharing most market sides with a wallet: whom it already copies, in effect.",
    route: "/api/v2/wallet/{address}/whale-matches",
    list: "matches",
    summarize: (body) =>
      listing(
        `Whales sharing positions with ${body.address} (${body.matched_whales} matched over ${body.positions_considered} positions)`,
        body.matches.map(
          (m) =>
            `${who(m.wallet, m.name)}: ${m.shared_positions} shared (${percent(m.overlap_pct)}), P&L ${usd(m.total_pnl)}, win rate ${percent(m.win_rate)}`,
        ),
      ),
  }),
  tool({
    name: "active_whale_markets",
    title: "Where a wallet's whales stand now",
    purpose:
      "Open markets where at least 3 of the whales matched to a wallet hold the same side and the wallet does not: copy-trading leads.",
    route: "/api/v2/wallet/{address}/active-whale-markets",
    list: "markets",
    summarize: (body) =>
      listing(
        `Markets where ${body.address}'s whales stand together`,
        body.markets.map(
          (m) =>
            `${m.question ?? m.condition_id} — ${m.side} at ${cents(m.price)}: ${m.whale_count} whales, ${usd(m.whales_cost_usd)}${m.wallet_holds_opposite ? " (the wallet holds the other side)" : ""}`,
        ),
      ),
  }),
  tool({
    name: "whale_backtest",
    title: "Whale history for backtests (Premium)",
    purpose:
      "A whale's resolved positions, newest first, with entry price, cost, P&L and whether each won, and a summary of the page: what copying it would have made.",
    route: "/api/v2/whale/{address}/backtest",
    list: "positions",
    summarize: (body) => {
      const s = body.summary;
      const head = `${body.wallet}: ${s.positions} resolved positions on this page, ${s.wins} won, ${s.losses} lost (win rate ${percent(s.win_rate)}), cost ${usd(s.total_net_cost)}, P&L ${usd(s.total_pnl)} (ROI ${percent(s.roi_pct)}).`;
      const rows = body.positions.map(
        (p) =>
          `${p.question} — ${p.side} @ ${cents(p.avg_entry_price)}: cost ${usd(p.net_cost)}, P&L ${usd(p.pnl)}, ${p.won ? "won" : "lost"}`,
      );
      return `${head}\n${listing("Positions", rows)}`;
    },
  }),
  tool({
    name: "ai_analysis",
    title: "AI analysis of a wallet (Premium)",
    purpose:
      "The saved AI analysis of a wallet; the first call queues one and answers pending with the seconds to wait before asking again.",
    route: "/api/v2/wallet/{address}/ai-analysis",
    list: "sections",
    summarize: (body) =>
      [
        `AI analysis of ${body.address} (${body.generator}${body.model ? `, ${body.model}` : ""}), written ${when(body.generated_at)}${body.stale ? ", stale" : ""}:`,
        ...body.sections.map((s) => `${s.title}: ${s.text}`),
      ].join("\n"),
  }),
];
