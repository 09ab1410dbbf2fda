/** Home: whale moves, hot markets with sparklines, top whales, category rotation, live trades, watching count. */
import { useState } from "preact/hooks";
import { api, useEvery, useLoad } from "../api.js";
import { LiveTrades } from "../components/live-trades.js";
import { Empty, MarketLink, Section, Show, Sparkline, Table } from "../components/ui.js";
import { ago, cents, pct, shortAddress, signedUsd, tone, usd } from "../format.js";
import { href } from "../router.js";

const CATEGORY_LABELS: Record<string, string> = {
  SPORTS: "Sports",
  GEOPOLITICS: "Geopolitics",
  CRYPTO: "Crypto",
  POLITICS: "Politics",
  ECONOMICS: "Economics",
  TECH: "Tech/AI",
};
export const categoryLabel = (category: string | null | undefined) =>
  category ? (CATEGORY_LABELS[category] ?? category) : "–";

function Watching() {
  const [watching, setWatching] = useState<number | null>(null);
  // A homepage session lasts 30 s on the service: ping within it, then read the count.
  useEvery(20_000, () => {
    void api
      .POST("/api/v2/home/ping")
      .then(() => api.GET("/api/v2/home/watching").then(({ data }) => data && setWatching(data.watching)));
  }, []);
  return (
    <p class="watching" aria-live="polite" data-testid="watching">
      <span class="dot live" aria-hidden="true" /> {watching === null ? "…" : watching} watching now
    </p>
  );
}

function WhaleMoves() {
  const moves = useLoad(() => api.GET("/api/v2/home/whale-moves"), []);
  return (
    <Show loaded={moves}>
      {(data) =>
        data.moves.length === 0 ? (
          <Empty>
            No Smart Money trade of {usd(data.min_usd)} or more in the last {data.hours} h.
          </Empty>
        ) : (
          <ul class="feed" data-testid="whale-moves">
            {data.moves.map((m) => (
              <li key={`${m.tx_hash}-${m.wallet}`}>
                <a href={href.wallet(m.wallet)}>{m.name ?? shortAddress(m.wallet)}</a>{" "}
                <span class={m.side === "BUY" ? "up" : "down"}>{m.side}</span> {m.outcome} {usd(m.usd)} @{" "}
                {cents(m.price)} <span class="muted small">{ago(m.ts)}</span>
                <div class="small">
                  <MarketLink id={m.market_id} label={m.question ?? m.condition_id} />
                </div>
              </li>
            ))}
          </ul>
        )
      }
    </Show>
  );
}

function HotMarkets() {
  const hot = useLoad(() => api.GET("/api/v2/home/hot-markets"), []);
  return (
    <Show loaded={hot}>
      {(data) =>
        data.markets.length === 0 ? (
          <Empty>No active market traded in the last 24 h.</Empty>
        ) : (
          <Table
            caption="Hot markets"
            head={["Market", "YES", "24 h volume", "Whales YES/NO", "Price"]}
            numeric={[1, 2, 3]}
          >
            {data.markets.map((m) => (
              <tr key={m.market_id} data-market={m.market_id}>
                <td>
                  <a href={href.market(m.market_id)}>{m.question}</a>
                  <div class="muted small">{categoryLabel(m.category)}</div>
                </td>
                <td class="num">{cents(m.price_yes)}</td>
                <td class="num">{usd(m.volume_24h)}</td>
                <td class="num">
                  {m.whales_yes}/{m.whales_no}
                </td>
                <td>
                  <Sparkline
                    values={m.sparkline}
                    label={`YES price over 24 h, from ${cents(m.sparkline[0])} to ${cents(m.sparkline.at(-1))}`}
                  />
                </td>
              </tr>
            ))}
          </Table>
        )
      }
    </Show>
  );
}

function TopWhales() {
  const top = useLoad(() => api.GET("/api/v2/home/top-whales-7d"), []);
  return (
    <Show loaded={top}>
      {(data) =>
        data.whales.length === 0 ? (
          <Empty>No Smart Money wallet closed a position in the last {data.days} days.</Empty>
        ) : (
          <ol class="rank" data-testid="top-whales">
            {data.whales.map((w) => (
              <li key={w.wallet}>
                <a href={href.wallet(w.wallet)}>{w.name ?? shortAddress(w.wallet)}</a>
                <span class={tone(w.realized_pnl_7d)}>{signedUsd(w.realized_pnl_7d)}</span>
                <span class="muted small">
                  win rate {pct(w.win_rate)} · {w.closed_positions_7d} closed
                </span>
              </li>
            ))}
          </ol>
        )
      }
    </Show>
  );
}

function CategoryRotation() {
  const rotation = useLoad(() => api.GET("/api/v2/home/category-rotation"), []);
  return (
    <Show loaded={rotation}>
      {(data) => {
        const top = Math.max(1, ...data.categories.map((c) => c.volume_24h));
        return (
          <ul class="bars" data-testid="category-rotation">
            {data.categories.map((c) => (
              <li key={c.category}>
                <span class="bar-label">{categoryLabel(c.category)}</span>
                <span class="bar-track" aria-hidden="true">
                  <span class="bar-fill" style={{ width: `${(c.volume_24h / top) * 100}%` }} />
                </span>
                <span class="bar-value">
                  {usd(c.volume_24h)}{" "}
                  <span class={tone(c.delta_usd)}>
                    {c.delta_pct === null ? "new" : `${c.delta_pct > 0 ? "+" : ""}${pct(c.delta_pct, 0)}`}
                  </span>
                </span>
              </li>
            ))}
          </ul>
        );
      }}
    </Show>
  );
}

export function HomePage() {
  return (
    <>
      <div class="page-head">
        <h1>Whales on the prediction markets</h1>
        <Watching />
      </div>
      <div class="grid">
        <Section title="Hot markets" note="Top active markets by 24 h volume, with the YES price over the day." wide>
          <HotMarkets />
        </Section>
        <Section title="Whale moves" note="Smart Money trades of the last 6 hours.">
          <WhaleMoves />
        </Section>
        <Section title="Top whales, 7 days" note="Realized P&L of the last 7 days, farmers excluded.">
          <TopWhales />
        </Section>
        <Section title="Category rotation" note="24 h volume by category, against the 24 h before.">
          <CategoryRotation />
        </Section>
        <Section title="Live trades" note="The venue's trades as they happen (Premium).">
          <LiveTrades />
        </Section>
      </div>
    </>
  );
}
