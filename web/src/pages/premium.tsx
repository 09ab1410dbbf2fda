/**
 * Whale alerts and flips (Premium): the user's key is entered here and kept in this browser's localStorage only;
 * every Premium call sends it as X-API-Key. Without a key, or with one the service refuses, the page says so.
 */
import { useEffect, useState } from "preact/hooks";
import { api, premiumKey, useLoad } from "../api.js";
import { Choice, Empty, MarketLink, Section, Show, Stat, Table } from "../components/ui.js";
import { ago, cents, count, pct, shortAddress, signedUsd, tone, usd, when } from "../format.js";
import { href } from "../router.js";
import { CATEGORIES } from "./leaderboards.js";
import { BigPositions } from "./premium-positions.js";

/** The key's form; tells the page whether the kept key may call Premium endpoints (the service's answer). */
export function KeyForm(props: { onPremium: (key: string | null) => void }) {
  const [stored, setStored] = useState(premiumKey.get());
  const verify = useLoad(() => api.GET("/api/v2/key/verify", { headers: premiumKey.headers() }), [stored]);
  // Told from the kept answer, not from inside the request: an answer for a key no longer kept (the check made
  // before a key was entered, coming back after the new key's) is dropped by useLoad and must not reach the page.
  useEffect(() => {
    if (verify.state !== "loading")
      props.onPremium(verify.state === "ok" && verify.data.valid && verify.data.premium ? stored : null);
  }, [verify]);
  const keep = (key: string) => {
    premiumKey.set(key);
    setStored(key);
  };
  const save = (event: Event) => {
    event.preventDefault();
    keep(String(new FormData(event.currentTarget as HTMLFormElement).get("key") ?? "").trim());
  };
  return (
    <form class="filters" onSubmit={save} aria-label="Premium key">
      <label>
        Premium API key
        <input type="password" name="key" autocomplete="off" value={stored} placeholder="pelagic_…" />
      </label>
      <button type="submit">{stored ? "Save" : "Use this key"}</button>
      {stored ? (
        <button type="button" onClick={() => keep("")}>
          Forget the key
        </button>
      ) : null}
      <p class="note small" aria-live="polite" data-testid="key-status">
        Kept in this browser only (localStorage), sent as X-API-Key. No key yet? The service's operator makes one with{" "}
        <code>pelagic keys create --account &lt;name&gt; --plan premium</code> on the service's own store (the demo
        prints one when it starts).{" "}
        <Show loaded={verify}>
          {(v) => (
            <span class={v.valid && v.premium ? "up" : "down"}>
              {v.valid && v.premium ? `Key ${v.key_prefix ?? ""} on the Premium plan.` : v.detail}
            </span>
          )}
        </Show>
      </p>
    </form>
  );
}

function Summary(props: { keyed: string }) {
  const summary = useLoad(
    () => api.GET("/api/v2/whale-alerts/summary", { headers: premiumKey.headers() }),
    [props.keyed],
  );
  return (
    <Show loaded={summary}>
      {(s) => (
        <dl class="stats" data-testid="alert-summary">
          <Stat
            label="Alerts, 24 h"
            value={count(s.total_alerts)}
            source={
              s.alerts_delta_pct === null
                ? "no earlier window"
                : `${s.alerts_delta_pct > 0 ? "+" : ""}${pct(s.alerts_delta_pct, 0)} on the 24 h before`
            }
          />
          <Stat label="Volume" value={usd(s.total_volume)} source={`trades of ${usd(s.min_usd)} or more`} />
          <Stat
            label="Biggest trade"
            value={s.biggest_single ? usd(s.biggest_single.usd_amount) : "–"}
            source={s.biggest_single?.question ?? undefined}
          />
          <Stat
            label="Most active whale"
            value={s.most_active_whale ? (s.most_active_whale.name ?? shortAddress(s.most_active_whale.wallet)) : "–"}
            source={
              s.most_active_whale
                ? `${s.most_active_whale.trades} trades, ${usd(s.most_active_whale.volume_usd)}`
                : undefined
            }
          />
        </dl>
      )}
    </Show>
  );
}

function Alerts(props: { keyed: string }) {
  const [minutes, setMinutes] = useState(1440);
  const [minUsd, setMinUsd] = useState(100);
  const [category, setCategory] = useState("All");
  const [smartOnly, setSmartOnly] = useState(true);
  // Older pages: the before_ts each page's answer gives for the next one (0: the newest).
  const [before, setBefore] = useState(0);
  const query = { minutes, min_usd: minUsd, smart_only: smartOnly, limit: 25, before_ts: before };
  const alerts = useLoad(
    () =>
      api.GET("/api/v2/whale-alerts", {
        headers: premiumKey.headers(),
        params: { query: { ...query, ...(category === "All" ? {} : { category }) } },
      }),
    [props.keyed, minutes, minUsd, category, smartOnly, before],
  );
  /** A changed filter starts again from the newest alerts. */
  const refilter = <T,>(set: (value: T) => void, value: T) => {
    setBefore(0);
    set(value);
  };
  return (
    <>
      <form class="filters" aria-label="Alert filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Window
          <select
            value={minutes}
            onChange={(e) => refilter(setMinutes, Number((e.currentTarget as HTMLSelectElement).value))}
          >
            <option value={10}>10 minutes</option>
            <option value={60}>1 hour</option>
            <option value={360}>6 hours</option>
            <option value={1440}>24 hours</option>
          </select>
        </label>
        <label>
          Min. size ($)
          <input
            type="number"
            min="0"
            step="any"
            value={minUsd}
            onChange={(e) => refilter(setMinUsd, Number((e.currentTarget as HTMLInputElement).value) || 0)}
          />
        </label>
        <label>
          Category
          <select
            value={category}
            onChange={(e) => refilter(setCategory, (e.currentTarget as HTMLSelectElement).value)}
          >
            {CATEGORIES.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </label>
        <label class="check">
          <input
            type="checkbox"
            name="smart_only"
            checked={smartOnly}
            onChange={(e) => refilter(setSmartOnly, (e.currentTarget as HTMLInputElement).checked)}
          />
          Smart Money only
        </label>
      </form>
      <Show loaded={alerts}>
        {(data) =>
          data.alerts.length === 0 ? (
            <Empty>No {data.smart_only ? "Smart Money " : ""}trade in this window.</Empty>
          ) : (
            <>
              <p class="note">
                {count(data.count)} alerts{before ? ` before ${when(before)}` : ""}; the feed as of {when(data.as_of)}.
              </p>
              <Table
                caption="Whale alerts"
                head={["When", "Whale", "Trade", "Market", "Price", "USD"]}
                numeric={[4, 5]}
              >
                {data.alerts.map((a) => (
                  <tr key={a.id} data-testid="alert" data-alert={a.id}>
                    <td class="small" title={when(a.timestamp)}>
                      {ago(a.timestamp)}
                    </td>
                    <td>
                      <a href={href.wallet(a.wallet)}>{a.name ?? shortAddress(a.wallet)}</a>
                      {a.is_smart && !data.smart_only ? <span class="badge"> smart</span> : null}
                      <div class="muted small">win rate {pct(a.win_rate)}</div>
                    </td>
                    <td>
                      <span class={a.direction === "BUY" ? "up" : "down"}>{a.direction}</span> {a.side}
                    </td>
                    <td>
                      <MarketLink id={a.market_id} label={a.question ?? a.condition_id} />
                    </td>
                    <td class="num">{cents(a.price)}</td>
                    <td class="num">{usd(a.usd_amount)}</td>
                  </tr>
                ))}
              </Table>
              <div class="tabs">
                {before ? (
                  <button type="button" onClick={() => setBefore(0)}>
                    Newest
                  </button>
                ) : null}
                {data.next_before_ts ? (
                  <button
                    type="button"
                    data-before={data.next_before_ts}
                    onClick={() => setBefore(data.next_before_ts ?? 0)}
                  >
                    Older
                  </button>
                ) : null}
              </div>
            </>
          )
        }
      </Show>
    </>
  );
}

function Flips(props: { keyed: string }) {
  const [days, setDays] = useState(7);
  const flips = useLoad(
    () => api.GET("/api/v2/whale-flips", { headers: premiumKey.headers(), params: { query: { days, limit: 20 } } }),
    [props.keyed, days],
  );
  return (
    <>
      <Choice
        legend="Look-back"
        options={[
          [1, "1 day"],
          [7, "7 days"],
          [14, "14 days"],
        ]}
        value={days}
        onChange={setDays}
      />
      <Show loaded={flips}>
        {(data) =>
          data.flips.length === 0 ? (
            <Empty>
              No whale switched sides by {usd(data.min_swing_usd)} or more since{" "}
              {data.comparison_date ?? "the last snapshot"}.
            </Empty>
          ) : (
            <Table
              caption="Whale flips"
              head={["Whale", "Market", "From", "To", "Swing", "Lifetime P&L"]}
              numeric={[4, 5]}
            >
              {data.flips.map((f) => (
                <tr key={`${f.wallet}-${f.condition_id}`} data-testid="flip">
                  <td>
                    <a href={href.wallet(f.wallet)}>{f.display_name ?? shortAddress(f.wallet)}</a>
                  </td>
                  <td>
                    <MarketLink id={f.market_id} label={f.question ?? f.condition_id} />
                  </td>
                  <td>
                    {f.old_side} {usd(f.old_size_usd)}
                  </td>
                  <td>
                    {f.new_side} {usd(f.new_size_usd)}
                  </td>
                  <td class="num">{usd(f.swing_usd)}</td>
                  <td class={`num ${tone(f.lifetime_pnl)}`}>{signedUsd(f.lifetime_pnl)}</td>
                </tr>
              ))}
            </Table>
          )
        }
      </Show>
    </>
  );
}

export function PremiumPage() {
  // Shown at once for a kept key (loading beside its check), hidden when the service says it is not Premium.
  const [key, setKey] = useState<string | null>(premiumKey.get() || null);
  return (
    <>
      <div class="page-head">
        <h1>Whale alerts and flips</h1>
      </div>
      <div class="grid">
        <Section title="Your key" note="Whale alerts, flips, big positions and the live feed are Premium." wide>
          <KeyForm onPremium={setKey} />
        </Section>
        {key ? (
          <>
            <Section title="Last 24 hours" wide>
              <Summary keyed={key} />
            </Section>
            <Section title="Whale alerts" note="Recent trades of whales, newest first." wide>
              <Alerts keyed={key} />
            </Section>
            <Section title="Whale flips" note="Whales that switched sides against an earlier daily snapshot." wide>
              <Flips keyed={key} />
            </Section>
            <Section title="Big positions" note="The whales' largest open positions, by cost basis." wide>
              <BigPositions keyed={key} />
            </Section>
          </>
        ) : (
          <Section title="Whale alerts" wide>
            <Empty>Enter a Premium key above to see whale alerts, flips and big positions.</Empty>
          </Section>
        )}
      </div>
    </>
  );
}
