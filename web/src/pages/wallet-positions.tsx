/** A wallet's open positions (with where their prices come from) and its closed positions (sorted as chosen). */
import { useState } from "preact/hooks";
import { api, type QueryParam, useLoad } from "../api.js";
import { Choice, Empty, Show, Table } from "../components/ui.js";
import { cents, count, pct, signedUsd, tone, usd, when } from "../format.js";
import { href } from "../router.js";

type ClosedSort = QueryParam<"/api/v2/wallet/{address}/closed", "sort">;
const CLOSED_SORTS: Array<[ClosedSort, string]> = [
  ["recent", "Most recent"],
  ["pnl", "Best"],
  ["pnl_asc", "Worst"],
  ["size", "Largest"],
];

/** The open positions' `source`, as the API documents it. */
const PRICE_SOURCES: Record<string, string> = {
  merged: "the venue's synced prices over the ledger's positions",
  cache: "the ledger's positions at the markets' last prices",
};

export function OpenPositions(props: { address: string }) {
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
          <>
            <p class="note" data-testid="positions-source">
              {count(data.count)} of {count(data.total)}, largest current value first. Prices:{" "}
              {PRICE_SOURCES[data.source] ?? data.source}
              {data.is_estimated ? " (estimates: the venue's prices are not fresh)" : ""}.
            </p>
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
                  <td class={`num ${tone(p.pnl)}`} title={pct(p.pnl_pct)}>
                    {signedUsd(p.pnl)}
                  </td>
                </tr>
              ))}
            </Table>
          </>
        )
      }
    </Show>
  );
}

export function ClosedPositions(props: { address: string }) {
  const [sort, setSort] = useState<ClosedSort>("recent");
  const closed = useLoad(
    () =>
      api.GET("/api/v2/wallet/{address}/closed", {
        params: { path: { address: props.address }, query: { limit: 25, sort } },
      }),
    [props.address, sort],
  );
  return (
    <>
      <Choice legend="Order" options={CLOSED_SORTS} value={sort} onChange={setSort} />
      <Show loaded={closed}>
        {(data) =>
          data.closed.length === 0 ? (
            <Empty>No closed position.</Empty>
          ) : (
            <>
              <p class="note">
                {count(data.count)} of {count(data.total)}; realized P&L is net of fees, from the ledger.
              </p>
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
                    <td class={`num ${tone(c.realized_pnl)}`} title={`fees ${usd(c.fees)}`}>
                      {signedUsd(c.realized_pnl)}
                    </td>
                    <td>{c.result}</td>
                    <td class="small">{c.closed_ts ? when(c.closed_ts).slice(0, 10) : "–"}</td>
                  </tr>
                ))}
              </Table>
            </>
          )
        }
      </Show>
    </>
  );
}
