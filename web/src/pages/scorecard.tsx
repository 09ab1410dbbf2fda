/**
 * The public scorecard (issue 52): whether the signal ledger's hash chain holds, and how each kind of signal fared
 * once its market resolved: hit rate and the return of following it, per month, with 95% intervals.
 */
import { api, useLoad } from "../api.js";
import { Empty, Section, Show, Table } from "../components/ui.js";
import { count, pct } from "../format.js";

const KINDS: Record<string, string> = {
  insider_alert: "Insider alerts",
  whale_alert: "Whale alerts",
  whale_flip: "Whale flips",
  consensus: "Smart Money consensus",
};

const ratio = (x: number | null) => (x === null ? "–" : pct(100 * x, 1));
const range = (low: number | null, high: number | null) =>
  low === null || high === null ? "" : ` (${ratio(low)} to ${ratio(high)})`;

export function ScorecardPage() {
  const card = useLoad(() => api.GET("/api/v2/scorecard"), []);
  return (
    <Show loaded={card}>
      {(c) => (
        <>
          <div class="page-head">
            <h1>Scorecard</h1>
          </div>
          <Section
            title="The record"
            note="Every signal is recorded when emitted, each record carrying the hash of the one before: none can be changed or dropped unnoticed."
            wide
          >
            <p data-testid="scorecard-chain" class={c.chain.verified ? "up" : "down"}>
              {c.chain.verified
                ? `The chain holds: ${count(c.chain.records)} signals recorded${c.chain.head_hash ? `, head ${c.chain.head_hash.slice(0, 16)}…` : ""}.`
                : `The chain breaks at record ${c.chain.broken_seq}: ${c.chain.broken_reason}.`}
            </p>
          </Section>
          <Section
            title="How the signals fared"
            note="Graded once the market resolved: a hit when the backed outcome won; the return of buying it at the next trade, with the taker fee, held to the payout."
            wide
          >
            {c.rows.length === 0 ? (
              <Empty>No signal recorded yet.</Empty>
            ) : (
              <div data-testid="scorecard-rows">
                <Table
                  caption="How each kind of signal fared, per month"
                  head={["Signal", "Month", "Signals", "Graded", "Hit rate (95%)", "Mean follow return (95%)"]}
                  numeric={[2, 3, 4, 5]}
                >
                  {c.rows.map((r) => (
                    <tr key={`${r.kind}-${r.month}`} data-kind={r.kind} data-month={r.month}>
                      <td>{KINDS[r.kind] ?? r.kind}</td>
                      <td>{r.month === "all" ? "All" : r.month}</td>
                      <td class="num">{count(r.signals)}</td>
                      <td class="num">{count(r.graded)}</td>
                      <td class="num">
                        {ratio(r.hit_rate)}
                        {range(r.hit_rate_low, r.hit_rate_high)}
                      </td>
                      <td class="num">
                        {ratio(r.mean_return)}
                        {range(r.mean_return_low, r.mean_return_high)}
                      </td>
                    </tr>
                  ))}
                </Table>
              </div>
            )}
          </Section>
        </>
      )}
    </Show>
  );
}
