/**
 * The deterministic report: the analysis written from the inputs by rules, without a model (the generator when no
 * AI_MODEL_BASE_URL is set). Every figure it writes is an input as is, rounded for reading; it computes none of its
 * own, so `unsupportedFigures` finds nothing in it (tested).
 */
import { countText, daysText, decimalText, pctText, quote, usdText } from "./figures.js";
import type { AnalysisInputs } from "./inputs.js";
import { CATEGORY_LABELS, type Category } from "../venue/categories.js";
import { SECTIONS, type ReportSection, type SectionKey } from "./sections.js";

type Inputs = AnalysisInputs;

const categoryName = (code: string) => CATEGORY_LABELS[code as Category] ?? code;
const list = (items: readonly string[], separator = ", ") =>
  items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(separator)} and ${items[items.length - 1]}`;
const bullets = (items: readonly string[]) => items.map((item) => `- ${item}`).join("\n");
const tally = (t: { closed_positions: number; win_rate: number | null; realized_pnl: number }) =>
  `${countText(t.closed_positions)} closed, ${t.win_rate === null ? "no win or loss" : `win rate ${pctText(t.win_rate)}`}, realized ${usdText(t.realized_pnl)}`;

function summary(x: Inputs): string {
  const { overview: o, stats: s, rankings: r, wallet } = x;
  const names = [wallet.name, wallet.pseudonym].filter((n, i, all): n is string => !!n && all.indexOf(n) === i);
  const who = `Wallet ${wallet.address}${names.length ? ` (venue name ${list(names.map(quote))})` : ""}`;
  const verdict = s.is_farmer
    ? `is flagged as a farmer (${s.farmer_reason ?? "unnamed test"}), so it is not Smart Money`
    : s.has_skill
      ? "is Smart Money and holds the strict skill badge"
      : s.is_smart
        ? "is Smart Money without the strict skill badge"
        : "is not Smart Money";
  const rank =
    r.rank_pnl === null
      ? "It is not ranked (too few resolved markets)."
      : `It ranks #${countText(r.rank_pnl)} by P&L among ${countText(r.total_traders)} ranked traders.`;
  return [
    `${who} made ${countText(o.total_trades)} trades in ${countText(o.total_markets)} markets for ${usdText(o.total_volume)} of volume${o.last_trade_date ? `, the latest on ${o.last_trade_date}` : ""}.`,
    `Its total P&L is ${usdText(s.total_pnl)} (realized ${usdText(s.realized_pnl)}, unrealized ${usdText(s.unrealized_pnl)}) with a win rate of ${pctText(s.win_rate)} and a profit factor of ${decimalText(s.profit_factor)}.`,
    `It ${verdict}. ${rank}`,
  ].join(" ");
}

function style(x: Inputs): string {
  const { categories, entry_prices: entries, hold: h, sizes } = x;
  const out: string[] = [];
  out.push(
    categories.length
      ? `Volume by category: ${list(categories.map((c) => `${categoryName(c.category)} ${pctText(c.volume_share_pct)} (${tally(c)})`))}.`
      : "None of its volume is in a market of the six categories.",
  );
  out.push(
    entries.length
      ? `Closed positions by average entry price: ${list(
          entries.map((b) => `${decimalText(b.min_price)} to ${decimalText(b.max_price)}: ${tally(b)}`),
          "; ",
        )}.`
      : "It has no closed position to group by entry price.",
  );
  const entry =
    sizes.avg_entry_price === null
      ? "It has bought nothing yet"
      : `Its average entry price is ${decimalText(sizes.avg_entry_price)}`;
  out.push(
    `${entry}; its trading role over the last ${countText(sizes.volume_window_days)} days is "${sizes.role_profile}".`,
  );
  out.push(
    h.median_hold_days === null
      ? `Too few positions closed in the last ${countText(h.window_days)} days for a median hold (${countText(x.thresholds.hold_min_positions)} needed).`
      : `Median hold ${daysText(h.median_hold_days)} over the positions closed in the last ${countText(h.window_days)} days (mean ${daysText(h.mean_hold_days ?? h.median_hold_days)}, from ${daysText(h.shortest_hold_days ?? 0)} to ${daysText(h.longest_hold_days ?? 0)}).`,
  );
  if (h.open_positions > 0 && h.open_avg_age_days !== null)
    out.push(
      `It holds ${countText(h.open_positions)} open positions, ${daysText(h.open_avg_age_days)} old on average.`,
    );
  const sizesText = [
    sizes.avg_fill_usd === null ? null : `an average fill of ${usdText(sizes.avg_fill_usd)}`,
    sizes.volume_per_market_usd === null ? null : `${usdText(sizes.volume_per_market_usd)} of volume per market`,
    `${usdText(sizes.volume_30d)} traded in the last ${countText(sizes.volume_window_days)} days${sizes.maker_share_30d_pct === null ? "" : `, ${pctText(sizes.maker_share_30d_pct)} of it as resting maker`}`,
  ].filter((t): t is string => t !== null);
  out.push(`Sizes: ${list(sizesText)}.`);
  return out.join(" ");
}

function edgeAndSkill(x: Inputs): string {
  const { stats: s, thresholds: t } = x;
  const out: string[] = [];
  out.push(
    s.edge_bps === null
      ? "No resolved event measures its edge over the price paid yet."
      : `Its edge over the price paid is ${decimalText(s.edge_bps, 1)} bps per event (outcome minus entry price, averaged over ${countText(s.skill_sample)} resolved events)${s.skill_z === null ? "" : `, a z-score of ${decimalText(s.skill_z)}`}.`,
  );
  const needs = `The strict skill badge needs Smart Money, at least ${countText(t.skill_min_resolved_markets)} resolved markets (it has ${countText(s.resolved)}), a z-score of at least ${decimalText(t.skill_min_z)}, no single event above ${decimalText(t.skill_max_event_pnl_share)} of its P&L, and edge in both halves of its history.`;
  const failed = [
    !s.is_smart ? "it is not Smart Money" : null,
    s.resolved < t.skill_min_resolved_markets ? "too few resolved markets" : null,
    s.skill_z === null || s.skill_z < t.skill_min_z ? "its z-score is below the bar" : null,
  ].filter((f): f is string => f !== null);
  const verdict = s.has_skill
    ? "It holds the badge."
    : failed.length
      ? `It does not hold it: ${list(failed)}.`
      : "It passes those figures but not the event-share or persistence test, so it does not hold it.";
  out.push(needs, verdict, `Its profit factor (gross profit over gross loss) is ${decimalText(s.profit_factor)}.`);
  return out.join(" ");
}

const FARMER_RULES: Record<string, (t: Inputs["thresholds"]) => string> = {
  favourite_farming: (t) =>
    `the test flags a volume-weighted average buy price above ${decimalText(t.farmer_favourite_avg_buy_price)}: buying near-certain outcomes wins often and says little about forecasting`,
  reward_volume_farming: (t) =>
    `the test flags more than ${countText(t.farmer_bot_min_fills)} fills averaging under ${usdText(t.farmer_bot_max_avg_fill_usd)}, or more earned in rewards than in trading`,
  two_sided_farming: (t) =>
    `the test flags a wallet of at least ${countText(t.farmer_two_sided_min_markets)} markets that held ${decimalText(t.farmer_two_sided_market_share)} or more of them on both sides at once, or whose own splits and merges (collateral into both outcomes and back) came to more than ${decimalText(t.farmer_split_merge_volume_share)} of its volume with near-zero P&L`,
  wash_trading: (t) =>
    `the test flags ${decimalText(t.farmer_wash_ring_volume_share)} or more of the volume going back and forth with a ring of at most ${countText(t.farmer_wash_ring_max_counterparties)} counterparties`,
};

function verdicts(x: Inputs): string {
  const { stats: s, thresholds: t } = x;
  const source =
    s.win_source === "ledger"
      ? "its closed positions, as the venue lists them"
      : s.win_source === "venue"
        ? "the venue's closed positions"
        : "its resolved markets";
  const failed = [
    s.is_farmer ? "it is a farmer" : null,
    s.resolved < t.smart_min_resolved_markets ? `it has ${countText(s.resolved)} resolved markets` : null,
    s.win_rate < t.smart_min_win_rate ? `its win rate is ${pctText(s.win_rate)}` : null,
    s.total_pnl <= 0 ? `its total P&L is ${usdText(s.total_pnl)}` : null,
  ].filter((f): f is string => f !== null);
  const smart =
    `Smart Money needs a wallet that is not a farmer, with at least ${countText(t.smart_min_resolved_markets)} resolved markets, a win rate of at least ${pctText(t.smart_min_win_rate)} and a positive total P&L. ` +
    (s.is_smart
      ? `This wallet is Smart Money: ${countText(s.resolved)} resolved markets, a win rate of ${pctText(s.win_rate)} (from ${source}) and ${usdText(s.total_pnl)} of P&L.`
      : `This wallet is not Smart Money: ${failed.length ? list(failed) : "it misses one of them"}.`);
  const rule = s.farmer_reason ? FARMER_RULES[s.farmer_reason] : undefined;
  const farmer = s.is_farmer
    ? `It is flagged as a farmer by the ${s.farmer_reason ?? "unnamed"} test${rule ? `: ${rule(t)}` : ""}. A farmer is never Smart Money, whatever its win rate.`
    : "None of the farmer tests (favourite farming, reward or volume farming, two-sided farming, wash trading) flags it.";
  return `${smart}

${farmer}`;
}

function strengths(x: Inputs): string {
  const { stats: s, rankings: r, categories } = x;
  const best = [...categories].filter((c) => c.realized_pnl > 0).sort((a, b) => b.realized_pnl - a.realized_pnl)[0];
  const items = [
    s.has_skill && s.skill_z !== null
      ? `Edge that passes the strict skill test: z-score ${decimalText(s.skill_z)} over ${countText(s.skill_sample)} events.`
      : null,
    s.is_smart
      ? `Smart Money: a win rate of ${pctText(s.win_rate)} over ${countText(s.resolved)} resolved markets with a positive P&L.`
      : null,
    s.profit_factor >= 1.5 ? `Its wins outweigh its losses: profit factor ${decimalText(s.profit_factor)}.` : null,
    s.edge_bps !== null && s.edge_bps > 0 && !s.has_skill
      ? `A positive edge over the price paid (${decimalText(s.edge_bps, 1)} bps per event), not yet significant enough for the badge.`
      : null,
    best
      ? `Its best category is ${categoryName(best.category)}: realized ${usdText(best.realized_pnl)} over ${countText(best.closed_positions)} closed positions.`
      : null,
    r.rank_pnl !== null && r.rank_pnl <= Math.max(1, r.total_traders / 10)
      ? `A top P&L rank: #${countText(r.rank_pnl)} of ${countText(r.total_traders)}.`
      : null,
    s.profitable_streak >= 3 ? `A profitable streak of ${countText(s.profitable_streak)} days running.` : null,
  ].filter((i): i is string => i !== null);
  return items.length ? bullets(items) : "No strength stands out in its stored figures.";
}

function risks(x: Inputs): string {
  const { stats: s, thresholds: t, categories, sizes, overview: o } = x;
  const worst = [...categories].filter((c) => c.realized_pnl < 0).sort((a, b) => a.realized_pnl - b.realized_pnl)[0];
  const main = categories[0];
  const items = [
    s.is_farmer
      ? `Flagged as a farmer (${s.farmer_reason ?? "unnamed test"}): its win rate and P&L say little about forecasting.`
      : null,
    s.resolved < t.smart_min_resolved_markets
      ? `A small sample: ${countText(s.resolved)} resolved markets, fewer than the ${countText(t.smart_min_resolved_markets)} Smart Money needs.`
      : null,
    s.profit_factor > 0 && s.profit_factor < 1
      ? `Its losses outweigh its wins: profit factor ${decimalText(s.profit_factor)}.`
      : null,
    s.edge_bps !== null && s.edge_bps < 0
      ? `A negative edge over the price paid: ${decimalText(s.edge_bps, 1)} bps per event.`
      : null,
    worst
      ? `Its worst category is ${categoryName(worst.category)}: realized ${usdText(worst.realized_pnl)} over ${countText(worst.closed_positions)} closed positions.`
      : null,
    main && main.volume_share_pct >= 70
      ? `Concentrated: ${pctText(main.volume_share_pct)} of its volume is in ${categoryName(main.category)}.`
      : null,
    sizes.role_profile === "favourite buyer"
      ? `It buys favourites (average entry ${decimalText(sizes.avg_entry_price ?? 0)}): small gains per win, large losses when wrong.`
      : null,
    sizes.role_profile === "longshot buyer"
      ? `It buys longshots (average entry ${decimalText(sizes.avg_entry_price ?? 0)}): many small losses for rare large wins.`
      : null,
    Math.abs(s.unrealized_pnl) > Math.abs(s.realized_pnl)
      ? `Most of its P&L is unrealized (${usdText(s.unrealized_pnl)} across ${countText(o.active_count)} open positions): it can still move.`
      : null,
    s.pnl_24h !== null && s.pnl_24h < 0 ? `It lost ${usdText(-s.pnl_24h)} over the last day.` : null,
  ].filter((i): i is string => i !== null);
  return items.length ? bullets(items) : "No particular risk stands out in its stored figures.";
}

function recentChanges(x: Inputs): string {
  const { recent: r, stats: s } = x;
  const out = [
    r.trades_count === 0
      ? `No trade in the last ${countText(r.days)} days.`
      : `In the last ${countText(r.days)} days: ${countText(r.trades_count)} trades for ${usdText(r.volume_usd)} of volume; its P&L moved by ${usdText(r.pnl_delta)}.`,
    s.pnl_24h === null
      ? "No P&L point reaches a day back."
      : `Over the last day its P&L moved by ${usdText(s.pnl_24h)}.`,
  ];
  const m = r.last_move;
  if (m)
    out.push(
      `Its latest move: ${m.action_label} for ${usdText(m.usd)} on ${m.date}${m.question ? ` in ${quote(m.question)}` : ""}.`,
    );
  return out.join(" ");
}

const WRITERS: Record<SectionKey, (x: Inputs) => string> = {
  summary,
  style,
  edge_and_skill: edgeAndSkill,
  verdicts,
  strengths,
  risks,
  recent_changes: recentChanges,
};

/** The deterministic report of a wallet's inputs, section by section. */
export function deterministicReport(inputs: AnalysisInputs): ReportSection[] {
  return SECTIONS.map((s) => ({ key: s.key, title: s.title, text: WRITERS[s.key](inputs) }));
}
