/**
 * Leaderboards: the whale leaderboard with every filter `/api/v2/whales/leaderboard` takes, and the public
 * leaderboard by period (`/api/leaderboard`). The filters live in the URL's hash, so a filtered board is a link.
 */
import { api, type paths, useLoad } from "../api.js";
import { Empty, Section, Show, Table } from "../components/ui.js";
import { cents, count, pct, shortAddress, signedUsd, tone, usd } from "../format.js";
import { href } from "../router.js";
import { categoryLabel } from "./home.js";

type BoardQuery = NonNullable<paths["/api/v2/whales/leaderboard"]["get"]["parameters"]["query"]>;
type PeriodQuery = NonNullable<paths["/api/leaderboard"]["get"]["parameters"]["query"]>;

export const CATEGORIES = ["All", "Crypto", "Geopolitics", "Sports", "Politics", "Economics", "Tech/AI"];

/** Every filter of the whale leaderboard: its field, label, and the form control that sets it. */
const NUMBER_FILTERS: Array<{ name: keyof BoardQuery; label: string; step: string; min?: string; max?: string }> = [
  { name: "min_markets", label: "Min. resolved markets", step: "1", min: "0" },
  { name: "min_wr", label: "Min. win rate (%)", step: "any", min: "0", max: "100" },
  { name: "min_pnl", label: "Min. P&L ($)", step: "any" },
  { name: "min_profit_factor", label: "Min. profit factor", step: "any", min: "0" },
  { name: "max_avg_entry", label: "Max. avg. entry (0–1, 0 = any)", step: "any", min: "0", max: "1" },
  { name: "max_sports_pct", label: "Max. sports share (%, 0 = any)", step: "any", min: "0", max: "100" },
];
const PAGE = 25;

function setQuery(query: URLSearchParams) {
  for (const [name, value] of [...query]) if (value === "") query.delete(name);
  location.hash = href.leaderboards(query);
}

function boardQuery(query: URLSearchParams): BoardQuery {
  const out: Record<string, string | number> = { limit: PAGE };
  for (const [name, value] of query)
    if (name !== "tab" && name !== "period" && value !== "")
      out[name] = /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  return out as BoardQuery;
}

function WhaleBoard(props: { query: URLSearchParams }) {
  const q = boardQuery(props.query);
  const offset = Number(q.offset ?? 0);
  const board = useLoad(
    () => api.GET("/api/v2/whales/leaderboard", { params: { query: q } }),
    [props.query.toString()],
  );
  const onSubmit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const next = new URLSearchParams();
    for (const [name, value] of form) if (typeof value === "string") next.set(name, value.trim());
    next.set("skill", form.get("skill") ? "1" : "");
    if (next.get("category") === "All") next.delete("category");
    setQuery(next);
  };
  const page = (delta: number) => {
    const next = new URLSearchParams(props.query);
    next.set("offset", String(Math.max(0, offset + delta)));
    setQuery(next);
  };
  const value = (name: string) => props.query.get(name) ?? "";
  return (
    <>
      <form class="filters" onSubmit={onSubmit} aria-label="Leaderboard filters" key={props.query.toString()}>
        <label>
          Sort by
          <select name="sort" value={value("sort") || "pnl"}>
            <option value="pnl">P&L</option>
            <option value="win_rate">Win rate</option>
            <option value="volume">Volume</option>
            <option value="trades">Trades</option>
          </select>
        </label>
        <label>
          Who
          <select name="filter" value={value("filter") || "smart"}>
            <option value="smart">Smart Money</option>
            <option value="all">Everyone</option>
          </select>
        </label>
        <label>
          Category
          <select name="category" value={value("category") || "All"}>
            {CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
        {NUMBER_FILTERS.map((f) => (
          <label key={f.name}>
            {f.label}
            <input
              type="number"
              name={f.name}
              step={f.step}
              min={f.min}
              max={f.max}
              value={value(f.name)}
              placeholder={f.name === "min_markets" ? "10" : "0"}
            />
          </label>
        ))}
        <label>
          Exclude wallets
          <input type="text" name="exclude_wallets" value={value("exclude_wallets")} placeholder="0x…, 0x…" />
        </label>
        <label class="check">
          <input type="checkbox" name="skill" value="1" checked={value("skill") === "1"} /> Skill badge only
        </label>
        <button type="submit">Apply</button>
      </form>
      <Show loaded={board}>
        {(data) =>
          data.whales.length === 0 ? (
            <Empty>No wallet passes these filters.</Empty>
          ) : (
            <>
              <p class="note">
                {count(data.total)} wallets; {offset + 1}–{offset + data.whales.length} shown.
              </p>
              <Table
                caption="Whale leaderboard"
                head={[
                  "#",
                  "Wallet",
                  "P&L",
                  "Win rate",
                  "Profit factor",
                  "Resolved",
                  "Volume",
                  "Avg. entry",
                  "Main category",
                  "Profile",
                ]}
                numeric={[0, 2, 3, 4, 5, 6, 7]}
              >
                {data.whales.map((w, i) => (
                  <tr key={w.wallet} data-wallet={w.wallet}>
                    <td class="num">{offset + i + 1}</td>
                    <td>
                      <a href={href.wallet(w.wallet)}>{w.name ?? shortAddress(w.wallet)}</a>
                      {w.has_skill ? (
                        <span class="badge" title="strict skill badge">
                          {" "}
                          skill
                        </span>
                      ) : null}
                    </td>
                    <td class={`num ${tone(w.total_pnl)}`}>{signedUsd(w.total_pnl)}</td>
                    <td class="num">{pct(w.win_rate)}</td>
                    <td class="num">{w.profit_factor.toFixed(2)}</td>
                    <td class="num">{count(w.resolved_markets)}</td>
                    <td class="num">{usd(w.total_volume)}</td>
                    <td class="num">{cents(w.avg_entry_price)}</td>
                    <td>{categoryLabel(w.main_category)}</td>
                    <td>{w.role_profile}</td>
                  </tr>
                ))}
              </Table>
              <div class="tabs">
                <button type="button" onClick={() => page(-PAGE)} disabled={offset === 0}>
                  Previous
                </button>
                <button type="button" onClick={() => page(PAGE)} disabled={offset + data.whales.length >= data.total}>
                  Next
                </button>
              </div>
            </>
          )
        }
      </Show>
    </>
  );
}

function PeriodBoard(props: { query: URLSearchParams }) {
  const period = (props.query.get("period") || "7d") as NonNullable<PeriodQuery["period"]>;
  const filter = (props.query.get("filter") || "smart") as NonNullable<PeriodQuery["filter"]>;
  const board = useLoad(
    () => api.GET("/api/leaderboard", { params: { query: { period, filter, limit: 50 } } }),
    [period, filter],
  );
  const set = (name: string, value: string) => {
    const next = new URLSearchParams(props.query);
    next.set(name, value);
    setQuery(next);
  };
  return (
    <>
      <fieldset class="tabs">
        <legend class="visually-hidden">Period</legend>
        {(["24h", "7d", "30d", "all"] as const).map((p) => (
          <button type="button" key={p} aria-pressed={p === period} onClick={() => set("period", p)}>
            {p === "all" ? "All time" : p}
          </button>
        ))}
        <label class="check">
          <input
            type="checkbox"
            checked={filter === "all"}
            onChange={(e) => set("filter", (e.currentTarget as HTMLInputElement).checked ? "all" : "smart")}
          />{" "}
          Everyone, not only Smart Money
        </label>
      </fieldset>
      <Show loaded={board}>
        {(data) =>
          data.traders.length === 0 ? (
            <Empty>Nobody realized P&L in this period.</Empty>
          ) : (
            <Table
              caption={`Leaderboard, ${data.period}`}
              head={["#", "Wallet", `P&L (${data.period})`, "Lifetime P&L", "ROI", "Win rate", "Profile"]}
              numeric={[0, 2, 3, 4, 5]}
            >
              {data.traders.map((t, i) => (
                <tr key={t.wallet}>
                  <td class="num">{i + 1}</td>
                  <td>
                    <a href={href.wallet(t.wallet)}>{t.display_name ?? shortAddress(t.wallet)}</a>
                  </td>
                  <td class={`num ${tone(t.total_pnl)}`}>{signedUsd(t.total_pnl)}</td>
                  <td class={`num ${tone(t.lifetime_pnl)}`}>{signedUsd(t.lifetime_pnl)}</td>
                  <td class="num">{pct(t.roi)}</td>
                  <td class="num">{pct(t.win_rate)}</td>
                  <td>{t.role_profile}</td>
                </tr>
              ))}
            </Table>
          )
        }
      </Show>
    </>
  );
}

export function LeaderboardsPage(props: { query: URLSearchParams }) {
  const tab = props.query.get("tab") === "period" ? "period" : "whales";
  return (
    <>
      <div class="page-head">
        <h1>Leaderboards</h1>
        <fieldset class="tabs">
          <legend class="visually-hidden">Leaderboard</legend>
          <a class="tab" href={href.leaderboards()} aria-current={tab === "whales" ? "page" : undefined}>
            Whales, all filters
          </a>
          <a
            class="tab"
            href={href.leaderboards(new URLSearchParams({ tab: "period" }))}
            aria-current={tab === "period" ? "page" : undefined}
          >
            By period
          </a>
        </fieldset>
      </div>
      <Section title={tab === "whales" ? "Whale leaderboard" : "Leaderboard by period"} id="board" wide>
        {tab === "whales" ? <WhaleBoard query={props.query} /> : <PeriodBoard query={props.query} />}
      </Section>
    </>
  );
}
