/**
 * A market: consensus bar, Smart Money teams, Top Size (free: the v2 page's top traders), Top Shares (the
 * key-oriented page, with the user's Premium key), price history chart and the recent whale trades.
 */
import type { ComponentChildren } from "preact";
import { api, type Loaded, premiumKey, useLoad, type Answer } from "../api.js";
import { TimeChart } from "../components/chart.js";
import { Empty, Section, Show, SplitBar, Stat, Table } from "../components/ui.js";
import { ago, cents, count, pct, shortAddress, signedUsd, tone, usd, when } from "../format.js";
import { href } from "../router.js";
import { categoryLabel } from "./home.js";

type Holder = Answer<"/api/v2/market/{market_id}">["top_traders"]["yes"][number];

function Holders(props: { caption: string; rows: Holder[]; testid: string; by?: "cost" | "shares" }) {
  if (props.rows.length === 0) return <Empty>Nobody here.</Empty>;
  return (
    <Table
      caption={props.caption}
      head={["Wallet", props.by === "shares" ? "Shares" : "Invested", "Avg. price", "P&L", "Win rate"]}
      numeric={[1, 2, 3, 4]}
    >
      {props.rows.map((h) => (
        <tr key={h.wallet} data-testid={props.testid}>
          <td>
            <a href={href.wallet(h.wallet)}>{h.name ?? shortAddress(h.wallet)}</a>
            {h.is_smart ? <span class="badge"> smart</span> : null}
          </td>
          <td class="num">{props.by === "shares" ? count(h.shares) : usd(h.cost)}</td>
          <td class="num">{cents(h.avg_price)}</td>
          <td class={`num ${tone(h.pnl)}`}>{signedUsd(h.pnl)}</td>
          <td class="num">{pct(h.win_rate)}</td>
        </tr>
      ))}
    </Table>
  );
}

function Sides(props: { yes: ComponentChildren; no: ComponentChildren }) {
  return (
    <div class="sides">
      <div>
        <h3 class="yes-text">YES</h3>
        {props.yes}
      </div>
      <div>
        <h3 class="no-text">NO</h3>
        {props.no}
      </div>
    </div>
  );
}

/** The key-oriented page (Top Shares), asked only with the user's Premium key. */
function useTopShares(id: string) {
  const key = premiumKey.get();
  return useLoad(
    () =>
      key
        ? api.GET("/api/public/v1/market/{market_id}", {
            params: { path: { market_id: id } },
            headers: premiumKey.headers(),
          })
        : Promise.reject(new Error("no key")),
    [id, key],
  );
}

function TopShares(props: { page: ReturnType<typeof useTopShares> }) {
  const { page } = props;
  const key = premiumKey.get();
  if (!key) {
    return (
      <Empty>
        Top Shares is on the key-oriented page: enter a Premium key on the <a href={href.premium()}>whale alerts</a>{" "}
        page.
      </Empty>
    );
  }
  return (
    <Show loaded={page}>
      {(p) => (
        <Sides
          yes={<Holders caption="Top Shares, YES" rows={p.yes_team_shares} testid="top-shares" by="shares" />}
          no={<Holders caption="Top Shares, NO" rows={p.no_team_shares} testid="top-shares" by="shares" />}
        />
      )}
    </Show>
  );
}

const loadTrades = (id: string) =>
  api.GET("/api/v2/market/{market_id}/trades", { params: { path: { market_id: id }, query: { limit: 50 } } });

function WhaleTrades(props: { trades: Loaded<Answer<"/api/v2/market/{market_id}/trades">> }) {
  const { trades } = props;
  return (
    <Show loaded={trades}>
      {(data) => (
        <>
          <Section title="Price history" note="Daily YES price (volume-weighted and close)." wide>
            {data.price_history.length < 2 ? (
              <Empty>Not enough trading days to draw.</Empty>
            ) : (
              <TimeChart
                times={data.price_history.map((d) => d.t)}
                series={[
                  {
                    label: "VWAP YES",
                    values: data.price_history.map((d) => d.vwap_yes),
                    color: "#6cc7ff",
                    format: cents,
                  },
                  {
                    label: "Close YES",
                    values: data.price_history.map((d) => d.close_yes),
                    color: "#ffd54f",
                    format: cents,
                  },
                ]}
                label={`YES price over ${data.price_history.length} days, last close ${cents(data.price_history.at(-1)!.close_yes)}`}
              />
            )}
          </Section>
          <Section title="Whale trades" note="Recent trades of Smart Money wallets." wide>
            {data.trades.length === 0 ? (
              <Empty>No Smart Money trade in this market.</Empty>
            ) : (
              <Table
                caption="Whale trades"
                head={["When", "Wallet", "Trade", "Price", "Shares", "USD"]}
                numeric={[3, 4, 5]}
              >
                {data.trades.map((t) => (
                  <tr key={`${t.tx_hash}-${t.wallet}-${t.side}`} data-testid="whale-trade">
                    <td class="small" title={when(t.timestamp)}>
                      {ago(t.timestamp)}
                    </td>
                    <td>
                      <a href={href.wallet(t.wallet)}>{t.name ?? shortAddress(t.wallet)}</a>
                    </td>
                    <td>
                      <span class={t.direction === "BUY" ? "up" : "down"}>{t.direction}</span> {t.side}
                    </td>
                    <td class="num">{cents(t.price)}</td>
                    <td class="num">{count(t.shares)}</td>
                    <td class="num">{usd(t.usd_amount)}</td>
                  </tr>
                ))}
              </Table>
            )}
          </Section>
        </>
      )}
    </Show>
  );
}

export function MarketPage(props: { id: string }) {
  const market = useLoad(
    () => api.GET("/api/v2/market/{market_id}", { params: { path: { market_id: props.id } } }),
    [props.id],
  );
  // Asked at once beside the market, not after it: the page's sections come in together.
  const trades = useLoad(() => loadTrades(props.id), [props.id]);
  const topShares = useTopShares(props.id);
  return (
    <Show loaded={market}>
      {(m) => {
        const c = m.consensus;
        return (
          <>
            <div class="page-head">
              <div>
                <h1 data-testid="market-question">{m.market.question}</h1>
                <p class="muted small">
                  {categoryLabel(m.market.category)} ·{" "}
                  {m.market.closed ? "closed" : `ends ${when(m.market.end_date).slice(0, 10)}`} · as of {when(m.as_of)}
                </p>
              </div>
            </div>
            <div class="grid">
              <Section title="Consensus" note={`Smart Money holding at least ${usd(c.min_usd)} on a side.`} wide>
                <dl class="stats">
                  <Stat label="YES price" value={cents(m.prices.yes)} />
                  <Stat label="NO price" value={cents(m.prices.no)} />
                  <Stat label="Volume" value={usd(m.market.volume)} source={`24 h: ${usd(m.market.volume_24h)}`} />
                  <Stat
                    label="Whales"
                    value={count(c.whales.total)}
                    source={`${c.whales.yes} YES, ${c.whales.no} NO`}
                  />
                </dl>
                <div data-testid="consensus">
                  <SplitBar
                    left={c.whales.yes}
                    right={c.whales.no}
                    leftLabel="YES"
                    rightLabel="NO"
                    caption={`${c.whales.total} whales`}
                  />
                  <SplitBar
                    left={c.yes_invested}
                    right={c.no_invested}
                    leftLabel="YES"
                    rightLabel="NO"
                    caption={`${usd(c.yes_invested + c.no_invested)} invested`}
                  />
                </div>
              </Section>
              <Section title="Smart Money teams" wide>
                <Sides
                  yes={<Holders caption="Smart Money, YES" rows={c.yes_team} testid="team-yes" />}
                  no={<Holders caption="Smart Money, NO" rows={c.no_team} testid="team-no" />}
                />
              </Section>
              <Section title="Top Size" note="Every open position of a side, by USD invested." wide>
                <Sides
                  yes={<Holders caption="Top Size, YES" rows={m.top_traders.yes} testid="top-size" />}
                  no={<Holders caption="Top Size, NO" rows={m.top_traders.no} testid="top-size" />}
                />
              </Section>
              <Section title="Top Shares" note="Every open position of a side, by shares (Premium)." wide>
                <TopShares page={topShares} />
              </Section>
              <WhaleTrades trades={trades} />
            </div>
          </>
        );
      }}
    </Show>
  );
}
