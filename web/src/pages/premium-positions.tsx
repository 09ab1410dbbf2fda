/** The whales' big open positions (Premium, under whale alerts): their summary and the largest first. */
import { useState } from "preact/hooks";
import { api, premiumKey, useLoad } from "../api.js";
import { Empty, MarketLink, Show, Stat, Table } from "../components/ui.js";
import { cents, count, shortAddress, signedUsd, tone, usd, when } from "../format.js";
import { href } from "../router.js";
import { CATEGORIES } from "./leaderboards.js";

export function BigPositions(props: { keyed: string }) {
  const [category, setCategory] = useState("All");
  const query = category === "All" ? {} : { category };
  const summary = useLoad(
    () => api.GET("/api/v2/whale-alerts/big-positions/summary", { headers: premiumKey.headers(), params: { query } }),
    [props.keyed, category],
  );
  const positions = useLoad(
    () =>
      api.GET("/api/v2/whale-alerts/big-positions", {
        headers: premiumKey.headers(),
        params: { query: { ...query, limit: 25 } },
      }),
    [props.keyed, category],
  );
  return (
    <>
      <form class="filters" aria-label="Big position filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Category
          <select value={category} onChange={(e) => setCategory((e.currentTarget as HTMLSelectElement).value)}>
            {CATEGORIES.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </label>
      </form>
      <Show loaded={summary}>
        {(s) => (
          <dl class="stats" data-testid="big-position-summary">
            <Stat
              label="Positions"
              value={count(s.total_positions)}
              source={`cost basis ${usd(s.min_usd)} or more, as of ${when(s.as_of)}`}
            />
            <Stat
              label="Held value"
              value={usd(s.total_value_usd)}
              source={`cost basis ${usd(s.total_cost_basis_usd)}`}
            />
            <Stat
              label="Top whale"
              value={s.top_whale ? (s.top_whale.name ?? shortAddress(s.top_whale.wallet)) : "–"}
              source={
                s.top_whale ? `${s.top_whale.positions} positions, ${usd(s.top_whale.cost_basis_usd)}` : undefined
              }
            />
          </dl>
        )}
      </Show>
      <Show loaded={positions}>
        {(data) =>
          data.items.length === 0 ? (
            <Empty>No whale holds a position of {usd(data.min_usd)} or more.</Empty>
          ) : (
            <Table
              caption="Big positions"
              head={["Whale", "Market", "Side", "Cost basis", "Avg. price", "Price", "Unrealized"]}
              numeric={[3, 4, 5, 6]}
            >
              {data.items.map((p) => (
                <tr key={`${p.wallet}-${p.condition_id}-${p.side}`} data-testid="big-position">
                  <td>
                    <a href={href.wallet(p.wallet)}>{p.wallet_name ?? shortAddress(p.wallet)}</a>
                  </td>
                  <td>
                    <MarketLink id={p.market_id} label={p.market_title ?? p.condition_id} />
                  </td>
                  <td>{p.side}</td>
                  <td class="num">{usd(p.cost_basis)}</td>
                  <td class="num">{cents(p.avg_price)}</td>
                  <td class="num">{cents(p.current_price)}</td>
                  <td class={`num ${tone(p.unrealized_pnl)}`}>{signedUsd(p.unrealized_pnl)}</td>
                </tr>
              ))}
            </Table>
          )
        }
      </Show>
    </>
  );
}
