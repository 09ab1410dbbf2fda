/**
 * A wallet: overview (each figure with where it comes from), P&L chart by period, open and closed positions,
 * highlights, similar traders, whale matches, funding and insider scores (wallet-informed.tsx), and a presence ping
 * while the page is open.
 */
import { useState } from "preact/hooks";
import { type Answer, api, type QueryParam, useEvery, useLoad } from "../api.js";
import { TimeChart } from "../components/chart.js";
import { Choice, Empty, MarketLink, Section, Show, Stat } from "../components/ui.js";
import { ago, count, pct, shortAddress, signedUsd, tone, usd, when } from "../format.js";
import { href } from "../router.js";
import { categoryLabel } from "./home.js";
import { WalletFunding, WalletInsider } from "./wallet-informed.js";
import { ClosedPositions, OpenPositions } from "./wallet-positions.js";

type Period = QueryParam<"/api/v2/wallet/{address}/pnl-history", "period">;
/** What each period's points are (the route's documentation). */
const PERIODS: Array<[Period, string]> = [
  ["1D", "hourly total P&L (realized + unrealized) over 24 h"],
  ["1W", "hourly total P&L (realized + unrealized) over a week"],
  ["1M", "daily cumulative realized P&L net of fees over 30 days"],
  ["ALL", "daily cumulative realized P&L net of fees over the whole history"],
];

type Overview = NonNullable<Answer<"/api/v2/wallet/{address}/overview">>;

/** Where wins, losses, win rate and profit factor come from (the overview's `win_source`). */
const WIN_SOURCES: Record<Overview["stats"]["win_source"], string> = {
  ledger: "ledger: the whole chain history",
  venue: "venue's closed positions, synced",
  market: "resolved markets",
};

const rank = (value: number | null) => (value ? `#${count(value)}` : "–");

/** This tab's viewing session, so a reload in the same tab counts once (the service counts sessions for 90 s). */
function sessionId(): string {
  let id = sessionStorage.getItem("pelagic.session");
  if (!id) sessionStorage.setItem("pelagic.session", (id = crypto.randomUUID()));
  return id;
}

function Watching(props: { address: string }) {
  const [watching, setWatching] = useState<number | null>(null);
  const path = { path: { address: props.address } };
  useEvery(60_000, () => {
    void api
      .POST("/api/v2/wallet/{address}/ping", { params: { ...path, header: { "x-service-session": sessionId() } } })
      .then(({ data }) => data && setWatching(data.watching));
  }, [props.address]);
  return (
    <p class="watching" aria-live="polite" data-testid="watching">
      <span class="dot live" aria-hidden="true" /> {watching ?? "…"} watching this wallet
    </p>
  );
}

function Overview(props: { address: string }) {
  const overview = useLoad(
    () => api.GET("/api/v2/wallet/{address}/overview", { params: { path: { address: props.address } } }),
    [props.address],
  );
  return (
    <Show loaded={overview}>
      {(o) => {
        const s = o.stats;
        const stored = `stored statistics (view ${o.view}, as of ${when(o.as_of)})`;
        return (
          <>
            <div class="page-head">
              <div>
                <h1 data-testid="wallet-name">
                  {o.profile.name ?? o.profile.pseudonym ?? shortAddress(o.profile.address)}
                </h1>
                <p class="muted small" data-testid="wallet-address">
                  {o.profile.address}
                  {s.is_smart ? <span class="badge"> Smart Money</span> : null}
                  {s.has_skill ? <span class="badge"> skill</span> : null}
                  {s.is_farmer ? (
                    <span class="badge" title={s.farmer_reason ?? ""}>
                      {" "}
                      farmer
                    </span>
                  ) : null}
                </p>
              </div>
              <Watching address={props.address} />
            </div>
            <Section
              title="Overview"
              note={`Figures from ${stored}${o.degraded ? "; some counters are missing under load" : ""}.`}
              wide
            >
              <dl class="stats" data-testid="wallet-stats">
                <Stat
                  label="Total P&L"
                  value={signedUsd(s.total_pnl)}
                  tone={tone(s.total_pnl)}
                  source={
                    s.total_pnl_source === "venue"
                      ? "venue: last point of its P&L curve"
                      : "ledger: realized + unrealized"
                  }
                />
                <Stat
                  label="Realized"
                  value={signedUsd(s.realized_pnl)}
                  tone={tone(s.realized_pnl)}
                  source="ledger: settled, net of fees"
                />
                <Stat
                  label="Unrealized"
                  value={signedUsd(s.unrealized_pnl)}
                  tone={tone(s.unrealized_pnl)}
                  source="ledger: open at current prices"
                />
                <Stat
                  label="P&L 24 h"
                  value={signedUsd(s.pnl_24h)}
                  tone={tone(s.pnl_24h)}
                  source="ledger: change of total P&L over 24 h"
                />
                <Stat
                  label="Win rate"
                  value={pct(s.win_rate)}
                  source={`${WIN_SOURCES[s.win_source]}: ${count(s.wins)} won, ${count(s.losses)} lost`}
                />
                <Stat
                  label="Market win rate"
                  value={pct(s.market_win_rate)}
                  source={`ledger: ${count(s.market_wins)} of ${count(s.resolved)} resolved markets`}
                />
                <Stat
                  label="Profit factor"
                  value={s.profit_factor.toFixed(2)}
                  source={`${WIN_SOURCES[s.win_source]}: gains / losses`}
                />
                <Stat
                  label="Skill"
                  value={s.skill_z === null ? "–" : `z ${s.skill_z.toFixed(2)}`}
                  source={`ledger: edge ${s.edge_bps === null ? "–" : `${count(s.edge_bps)} bps`} over ${count(s.skill_sample)} resolved`}
                />
                <Stat
                  label="Volume"
                  value={usd(o.overview.total_volume)}
                  source={`chain fills: ${count(o.overview.total_trades)} trades`}
                />
                <Stat
                  label="Markets"
                  value={count(o.overview.total_markets)}
                  source={`chain fills: ${count(o.overview.active_count)} open, ${count(o.overview.closed_count)} closed`}
                />
                <Stat
                  label="Typical hold"
                  value={o.overview.median_hold_days === null ? "–" : `${o.overview.median_hold_days.toFixed(1)} d`}
                  source={`ledger: median of ${o.overview.hold_positions_count} closed in 90 days`}
                />
                <Stat
                  label="P&L rank"
                  value={rank(o.rankings.rank_pnl)}
                  source={`of ${count(o.rankings.total_traders)} ranked; win rate ${rank(o.rankings.rank_winrate)}, volume ${rank(o.rankings.rank_volume)}, profit factor ${rank(o.rankings.rank_profit_factor)}`}
                />
                <Stat
                  label="Last trade"
                  value={o.overview.last_trade ? ago(o.overview.last_trade) : "–"}
                  source={`chain fills: ${when(o.overview.last_trade)}`}
                />
              </dl>
              <ul class="legend" aria-label="Share of volume by category">
                {Object.entries(o.categories)
                  .filter(([, share]) => share > 0)
                  .sort((a, b) => b[1] - a[1])
                  .map(([category, share]) => (
                    <li key={category}>
                      {categoryLabel(category)} {pct(share, 0)}
                    </li>
                  ))}
              </ul>
            </Section>
          </>
        );
      }}
    </Show>
  );
}

function PnlChart(props: { address: string }) {
  const [period, setPeriod] = useState<Period>("1M");
  const history = useLoad(
    () =>
      api.GET("/api/v2/wallet/{address}/pnl-history", {
        params: { path: { address: props.address }, query: { period } },
      }),
    [props.address, period],
  );
  return (
    <>
      <Choice legend="Period" options={PERIODS.map(([p]) => [p, p] as const)} value={period} onChange={setPeriod} />
      <p class="note" data-testid="pnl-source">
        Ledger: {PERIODS.find(([p]) => p === period)![1]}.
      </p>
      <Show loaded={history}>
        {(h) =>
          h.points.length < 2 ? (
            <Empty>Not enough history for this period.</Empty>
          ) : (
            <TimeChart
              times={h.points.map((p) => p.t)}
              series={[{ label: "P&L", values: h.points.map((p) => p.p), color: "#6cc7ff", format: usd }]}
              label={`P&L over ${h.period}: from ${usd(h.points[0]!.p)} to ${usd(h.points.at(-1)!.p)}`}
            />
          )
        }
      </Show>
    </>
  );
}

function Highlights(props: { address: string }) {
  const highlights = useLoad(
    () => api.GET("/api/v2/wallet/{address}/highlights", { params: { path: { address: props.address } } }),
    [props.address],
  );
  return (
    <Show loaded={highlights}>
      {(h) => (
        <dl class="stats" data-testid="highlights">
          <Stat label="Winning streak" value={`${h.current_streak_days} d`} source="profitable UTC days up to today" />
          <Stat
            label="Best streak"
            value={`${h.best_streak_days} d`}
            tone={tone(h.best_streak?.pnl)}
            source={
              h.best_streak
                ? `${h.best_streak.start_date} to ${h.best_streak.end_date}, ${signedUsd(h.best_streak.pnl)}`
                : undefined
            }
          />
          <Stat label="Profitable days" value={count(h.profitable_days)} source="ledger: realized P&L per UTC day" />
          <Stat
            label="Biggest win"
            value={h.biggest_win ? signedUsd(h.biggest_win.pnl) : "–"}
            tone="up"
            source={
              h.biggest_win ? (
                <>
                  {h.biggest_win.outcome} on{" "}
                  <MarketLink
                    id={h.biggest_win.market_id}
                    label={h.biggest_win.question ?? h.biggest_win.condition_id}
                  />
                </>
              ) : undefined
            }
          />
        </dl>
      )}
    </Show>
  );
}

function SimilarTraders(props: { address: string }) {
  const similar = useLoad(
    () => api.GET("/api/v2/wallet/{address}/similar-traders", { params: { path: { address: props.address } } }),
    [props.address],
  );
  return (
    <Show loaded={similar}>
      {(data) =>
        data.similar.length === 0 ? (
          <Empty>No Smart Money wallet trades like this one.</Empty>
        ) : (
          <>
            <p class="note">Main category: {categoryLabel(data.primary_category)}.</p>
            <ul class="feed" data-testid="similar-traders">
              {data.similar.map((s) => (
                <li key={s.wallet}>
                  <a href={href.wallet(s.wallet)}>{s.name ?? shortAddress(s.wallet)}</a>{" "}
                  <span class={tone(s.total_pnl)}>{signedUsd(s.total_pnl)}</span>{" "}
                  <span class="muted small">
                    {s.overlap_label} ({pct(s.overlap_pct, 0)}: {s.shared_categories.map(categoryLabel).join(", ")}) ·
                    win rate {pct(s.win_rate)}
                  </span>
                </li>
              ))}
            </ul>
          </>
        )
      }
    </Show>
  );
}

function WhaleMatches(props: { address: string }) {
  const matches = useLoad(
    () => api.GET("/api/v2/wallet/{address}/whale-matches", { params: { path: { address: props.address } } }),
    [props.address],
  );
  return (
    <Show loaded={matches}>
      {(data) =>
        data.matches.length === 0 ? (
          <Empty>No whale holds the same positions.</Empty>
        ) : (
          <>
            <p class="note">
              {count(data.matched_whales)} whales share some of this wallet's {count(data.positions_considered)} market
              sides.
            </p>
            <ul class="feed" data-testid="whale-matches">
              {data.matches.map((m) => (
                <li key={m.wallet}>
                  <a href={href.wallet(m.wallet)}>{m.name ?? shortAddress(m.wallet)}</a>{" "}
                  <span class={tone(m.total_pnl)}>{signedUsd(m.total_pnl)}</span>{" "}
                  <span class="muted small">
                    {m.shared_positions} shared ({pct(m.overlap_pct, 0)}) · win rate {pct(m.win_rate)}
                  </span>
                </li>
              ))}
            </ul>
          </>
        )
      }
    </Show>
  );
}

export function WalletPage(props: { address: string }) {
  const { address } = props;
  return (
    <>
      <Overview address={address} />
      <div class="grid">
        <Section title="P&L" wide>
          <PnlChart address={address} />
        </Section>
        <Section title="Open positions" wide>
          <OpenPositions address={address} />
        </Section>
        <Section title="Closed positions" wide>
          <ClosedPositions address={address} />
        </Section>
        <Section title="Highlights">
          <Highlights address={address} />
        </Section>
        <Section title="Similar traders" note="Smart Money with the same main category and positive P&L.">
          <SimilarTraders address={address} />
        </Section>
        <Section title="Whale matches" note="Smart Money that holds or held the same market and side.">
          <WhaleMatches address={address} />
        </Section>
        <Section title="Funding" note="Collateral transfers into the wallet, followed back to an exchange or bridge.">
          <WalletFunding address={address} />
        </Section>
        <Section title="Insider scores" note="Its large recent bets, scored 0 to 100 (80 and over: an insider alert).">
          <WalletInsider address={address} />
        </Section>
      </div>
    </>
  );
}
