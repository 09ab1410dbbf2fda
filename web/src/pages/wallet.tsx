/**
 * A wallet: overview (each figure with where it comes from), P&L chart by period, open and closed positions,
 * highlights, similar traders, whale matches, and a presence ping while the page is open.
 */
import { useState } from "preact/hooks";
import { api, useEvery, useLoad } from "../api.js";
import { TimeChart } from "../components/chart.js";
import { Empty, Section, Show, Stat, Table } from "../components/ui.js";
import { ago, cents, count, pct, shortAddress, signedUsd, tone, usd, when } from "../format.js";
import type { paths } from "../openapi.js";
import { href } from "../router.js";
import { categoryLabel } from "./home.js";

type Period = NonNullable<
  NonNullable<paths["/api/v2/wallet/{address}/pnl-history"]["get"]["parameters"]["query"]>["period"]
>;
const PERIODS: Period[] = ["1D", "1W", "1M", "ALL"];

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
      .then(() => api.GET("/api/v2/wallet/{address}/watching", { params: path }))
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
                  source="ledger: realized + unrealized"
                />
                <Stat
                  label="Realized"
                  value={signedUsd(s.realized_pnl)}
                  tone={tone(s.realized_pnl)}
                  source="ledger: closed and sold"
                />
                <Stat
                  label="Unrealized"
                  value={signedUsd(s.unrealized_pnl)}
                  tone={tone(s.unrealized_pnl)}
                  source="ledger: open at last price"
                />
                <Stat
                  label="P&L 24 h"
                  value={signedUsd(s.pnl_24h)}
                  tone={tone(s.pnl_24h)}
                  source="ledger: daily snapshots"
                />
                <Stat
                  label="Win rate"
                  value={pct(s.win_rate)}
                  source={`${s.win_source === "venue" ? "venue's count" : "ledger, by market"}: ${count(s.wins)} won, ${count(s.losses)} lost`}
                />
                <Stat
                  label="Market win rate"
                  value={pct(s.market_win_rate)}
                  source={`ledger: ${count(s.market_wins)}/${count(s.resolved)} resolved markets`}
                />
                <Stat label="Profit factor" value={s.profit_factor.toFixed(2)} source="ledger: gains / losses" />
                <Stat
                  label="Volume"
                  value={usd(o.overview.total_volume)}
                  source={`chain fills: ${count(o.overview.total_trades)} trades`}
                />
                <Stat
                  label="Markets"
                  value={count(o.overview.total_markets)}
                  source={`${count(o.overview.active_count)} open, ${count(o.overview.closed_count)} closed`}
                />
                <Stat
                  label="Typical hold"
                  value={o.overview.median_hold_days === null ? "–" : `${o.overview.median_hold_days.toFixed(1)} d`}
                  source={`median of ${o.overview.hold_positions_count} positions, 90 days`}
                />
                <Stat
                  label="P&L rank"
                  value={o.rankings.rank_pnl ? `#${count(o.rankings.rank_pnl)}` : "–"}
                  source={`of ${count(o.rankings.total_traders)} traders`}
                />
                <Stat
                  label="Last trade"
                  value={o.overview.last_trade ? ago(o.overview.last_trade) : "–"}
                  source={when(o.overview.last_trade)}
                />
              </dl>
              <ul class="legend" aria-label="Categories">
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
      <fieldset class="tabs">
        <legend class="visually-hidden">Period</legend>
        {PERIODS.map((p) => (
          <button type="button" key={p} aria-pressed={p === period} onClick={() => setPeriod(p)}>
            {p}
          </button>
        ))}
      </fieldset>
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

function OpenPositions(props: { address: string }) {
  const open = useLoad(
    () =>
      api.GET("/api/v2/wallet/{address}/positions", {
        params: { path: { address: props.address }, query: { limit: 50 } },
      }),
    [props.address],
  );
  return (
    <Show loaded={open}>
      {(data) =>
        data.positions.length === 0 ? (
          <Empty>No open position.</Empty>
        ) : (
          <Table
            caption="Open positions"
            head={["Market", "Side", "Shares", "Avg. entry", "Price", "Value", "P&L"]}
            numeric={[2, 3, 4, 5, 6]}
          >
            {data.positions.map((p) => (
              <tr key={p.token_id} data-testid="open-position">
                <td>
                  <a href={href.market(p.market_id)}>{p.question}</a>
                </td>
                <td>{p.outcome}</td>
                <td class="num">{count(p.tokens)}</td>
                <td class="num">{cents(p.avg_entry)}</td>
                <td class="num">{cents(p.current_price)}</td>
                <td class="num">{usd(p.current_value)}</td>
                <td class={`num ${tone(p.pnl)}`}>{signedUsd(p.pnl)}</td>
              </tr>
            ))}
          </Table>
        )
      }
    </Show>
  );
}

function ClosedPositions(props: { address: string }) {
  const closed = useLoad(
    () =>
      api.GET("/api/v2/wallet/{address}/closed", {
        params: { path: { address: props.address }, query: { limit: 25 } },
      }),
    [props.address],
  );
  return (
    <Show loaded={closed}>
      {(data) =>
        data.closed.length === 0 ? (
          <Empty>No closed position.</Empty>
        ) : (
          <Table
            caption="Closed positions"
            head={["Market", "Side", "Cost", "Realized P&L", "Result", "Closed"]}
            numeric={[2, 3]}
          >
            {data.closed.map((c) => (
              <tr key={c.token_id} data-testid="closed-position">
                <td>
                  <a href={href.market(c.market_id)}>{c.question}</a>
                </td>
                <td>{c.outcome}</td>
                <td class="num">{usd(c.buy_cost)}</td>
                <td class={`num ${tone(c.realized_pnl)}`}>{signedUsd(c.realized_pnl)}</td>
                <td>{c.result}</td>
                <td class="small">{c.closed_ts ? when(c.closed_ts).slice(0, 10) : "–"}</td>
              </tr>
            ))}
          </Table>
        )
      }
    </Show>
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
          <Stat label="Winning streak" value={`${h.current_streak_days} d`} source={`best ${h.best_streak_days} d`} />
          <Stat label="Profitable days" value={count(h.profitable_days)} />
          <Stat
            label="Biggest win"
            value={h.biggest_win ? signedUsd(h.biggest_win.pnl) : "–"}
            tone="up"
            source={
              h.biggest_win
                ? `${h.biggest_win.outcome} on ${h.biggest_win.question ?? h.biggest_win.condition_id}`
                : undefined
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
          <ul class="feed" data-testid="similar-traders">
            {data.similar.map((s) => (
              <li key={s.wallet}>
                <a href={href.wallet(s.wallet)}>{s.name ?? shortAddress(s.wallet)}</a>{" "}
                <span class={tone(s.total_pnl)}>{signedUsd(s.total_pnl)}</span>{" "}
                <span class="muted small">
                  {s.overlap_label} ({pct(s.overlap_pct, 0)}) · win rate {pct(s.win_rate)}
                </span>
              </li>
            ))}
          </ul>
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
          <ul class="feed" data-testid="whale-matches">
            {data.matches.map((m) => (
              <li key={m.wallet}>
                <a href={href.wallet(m.wallet)}>{m.name ?? shortAddress(m.wallet)}</a>{" "}
                <span class="muted small">
                  {m.shared_positions} shared positions ({pct(m.overlap_pct, 0)}) · P&L {signedUsd(m.total_pnl)}
                </span>
              </li>
            ))}
          </ul>
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
        <Section title="P&L" note="Cumulative P&L over the chosen period." wide>
          <PnlChart address={address} />
        </Section>
        <Section title="Open positions" note="Largest current value first." wide>
          <OpenPositions address={address} />
        </Section>
        <Section title="Closed positions" note="Most recent first." wide>
          <ClosedPositions address={address} />
        </Section>
        <Section title="Highlights">
          <Highlights address={address} />
        </Section>
        <Section title="Similar traders" note="Smart Money with the same main category.">
          <SimilarTraders address={address} />
        </Section>
        <Section title="Whale matches" note="Whales holding the same market and side.">
          <WhaleMatches address={address} />
        </Section>
      </div>
    </>
  );
}
