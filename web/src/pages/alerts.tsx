/**
 * Alerts that come to you (Premium): the account's destinations (add, test, enable again, delete), its rules (add,
 * pause, resume, delete) and the recent deliveries, refreshed every few seconds. Everything through
 * `/api/v2/alerts/*` with the key of the Premium page (this browser's localStorage only).
 */
import { useState } from "preact/hooks";
import { api, premiumKey, useEvery, useLoad, type Answer } from "../api.js";
import { Empty, Section, Show, Table } from "../components/ui.js";
import { shortAddress, usd, when } from "../format.js";
import { KeyForm } from "./premium.js";

type Destination = Answer<"/api/v2/alerts/destinations">["destinations"][number];
type Rule = Answer<"/api/v2/alerts/rules">["rules"][number];
type Kind = Rule["kind"];
type DestinationKind = Destination["kind"];

const headers = () => premiumKey.headers();
const listOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter((item) => item !== "");

/** The service's refusal in words (a 422's issues, or its detail). */
function refusal(error: unknown): string {
  const detail = (error as { detail?: unknown } | undefined)?.detail;
  if (Array.isArray(detail))
    return detail
      .map((d: { loc?: unknown[]; msg?: string }) => `${(d.loc ?? []).slice(1).join(".")}: ${d.msg}`)
      .join("; ");
  return typeof detail === "string" ? detail : "refused";
}

/**
 * What a form's last action said, kept by the page: the lists reload after each change, and a message kept in the
 * form would go with it (the signing secret is shown once).
 */
interface Said {
  readonly message: string;
  readonly setMessage: (message: string) => void;
}

function Destinations(props: { list: Destination[]; changed: () => void; said: Said }) {
  const { message, setMessage } = props.said;
  const [kind, setKind] = useState<DestinationKind>("webhook");
  const add = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const text = (name: string) => String(form.get(name) ?? "").trim() || undefined;
    const body =
      kind === "telegram"
        ? { kind, name: text("name") ?? "", bot_token: text("bot_token"), chat_id: text("chat_id") }
        : { kind, name: text("name") ?? "", url: text("url") };
    const { data, error } = await api.POST("/api/v2/alerts/destinations", { body, headers: headers() });
    setMessage(
      data ? (data.secret ? `Added. Its signing secret, shown this once: ${data.secret}` : "Added.") : refusal(error),
    );
    props.changed();
  };
  const act = async (id: number, action: "test" | "enable" | "delete") => {
    const path = { params: { path: { destination_id: id } }, headers: headers() };
    if (action === "test") {
      const { data, error } = await api.POST("/api/v2/alerts/destinations/{destination_id}/test", path);
      setMessage(
        data
          ? `Test: ${data.status}${data.last_status ? ` (HTTP ${data.last_status})` : ""}${data.last_error ? `: ${data.last_error}` : ""}`
          : refusal(error),
      );
    } else if (action === "enable") {
      const { error } = await api.PATCH("/api/v2/alerts/destinations/{destination_id}", {
        ...path,
        body: { enabled: true },
      });
      setMessage(error ? refusal(error) : "Enabled again.");
    } else {
      const { error } = await api.DELETE("/api/v2/alerts/destinations/{destination_id}", path);
      setMessage(error ? refusal(error) : "Deleted.");
    }
    props.changed();
  };
  return (
    <>
      {props.list.length === 0 ? (
        <Empty>No destination yet.</Empty>
      ) : (
        <Table caption="Destinations" head={["Name", "Kind", "Where", "Status", ""]}>
          {props.list.map((d) => (
            <tr key={d.id}>
              <td>{d.name}</td>
              <td>{d.kind}</td>
              <td>{d.label}</td>
              <td class={d.status === "active" ? "up" : "down"} title={d.disabled_reason ?? undefined}>
                {d.status}
                {d.disabled_reason ? `: ${d.disabled_reason}` : ""}
              </td>
              <td>
                <button type="button" onClick={() => act(d.id, "test")}>
                  Test
                </button>{" "}
                {d.status === "disabled" ? (
                  <button type="button" onClick={() => act(d.id, "enable")}>
                    Enable
                  </button>
                ) : null}{" "}
                <button type="button" onClick={() => act(d.id, "delete")}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
      <form class="filters" onSubmit={add} aria-label="Add a destination">
        <label>
          Kind
          <select
            value={kind}
            onChange={(e) => setKind((e.currentTarget as HTMLSelectElement).value as DestinationKind)}
          >
            <option value="webhook">Webhook (signed)</option>
            <option value="telegram">Telegram</option>
            <option value="discord">Discord</option>
            <option value="slack">Slack</option>
          </select>
        </label>
        <label>
          Name
          <input name="name" required maxLength={100} />
        </label>
        {kind === "telegram" ? (
          <>
            <label>
              Bot token
              <input name="bot_token" type="password" autocomplete="off" />
            </label>
            <label>
              Chat id
              <input name="chat_id" />
            </label>
          </>
        ) : (
          <label>
            URL
            <input name="url" type="url" />
          </label>
        )}
        <button type="submit">Add destination</button>
      </form>
      <p class="note small" aria-live="polite" data-testid="destination-message">
        {message}
      </p>
    </>
  );
}

function Rules(props: { list: Rule[]; destinations: Destination[]; changed: () => void; said: Said }) {
  const { message, setMessage } = props.said;
  const [kind, setKind] = useState<Kind>("wallet_trade");
  const add = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const subjects = listOf(String(form.get("subjects") ?? ""));
    const min = String(form.get("min_usd") ?? "").trim();
    const categories = listOf(String(form.get("categories") ?? ""));
    const points = String(form.get("min_points") ?? "").trim();
    const windowMinutes = String(form.get("window_minutes") ?? "").trim();
    const severity = String(form.get("min_severity") ?? "");
    const filters =
      kind === "territory_event"
        ? {
            ...(subjects.length > 0
              ? {
                  cities: String(form.get("subjects") ?? "")
                    .split(",")
                    .map((c) => c.trim())
                    .filter(Boolean),
                }
              : {}),
            ...(severity ? { min_severity: severity as "SAFE" | "LOW" | "MEDIUM" | "HIGH" | "CRITICAL" } : {}),
          }
        : kind === "insider_alert"
          ? {
              ...(subjects.length > 0 ? { markets: subjects } : {}),
              ...(categories.length > 0 ? { categories } : {}),
              ...(String(form.get("min_score") ?? "").trim() ? { min_score: Number(form.get("min_score")) } : {}),
            }
          : kind === "price_move"
            ? {
                markets: subjects,
                ...(points ? { min_points: Number(points) } : {}),
                ...(windowMinutes ? { window_minutes: Number(windowMinutes) } : {}),
              }
            : {
                ...(kind === "wallet_trade"
                  ? { wallets: subjects }
                  : kind === "market_whale_trade"
                    ? { markets: subjects }
                    : {}),
                ...(categories.length > 0 ? { categories } : {}),
                ...(kind === "smart_new_market" || kind === "consensus_flip"
                  ? {}
                  : { side: String(form.get("side")) as "buy" | "sell" | "both" }),
                ...(min && kind !== "consensus_flip" ? { min_usd: Number(min) } : {}),
              };
    const destination_ids = form.getAll("destination").map(Number);
    const { error } = await api.POST("/api/v2/alerts/rules", {
      body: { name: String(form.get("name") ?? ""), kind, filters, destination_ids },
      headers: headers(),
    });
    setMessage(error ? refusal(error) : "Added.");
    props.changed();
  };
  const act = async (id: number, action: "pause" | "resume" | "delete") => {
    const path = { params: { path: { rule_id: id } }, headers: headers() };
    const { error } =
      action === "delete"
        ? await api.DELETE("/api/v2/alerts/rules/{rule_id}", path)
        : action === "pause"
          ? await api.POST("/api/v2/alerts/rules/{rule_id}/pause", path)
          : await api.POST("/api/v2/alerts/rules/{rule_id}/resume", path);
    setMessage(
      error ? refusal(error) : `${action === "delete" ? "Deleted" : action === "pause" ? "Paused" : "Resumed"}.`,
    );
    props.changed();
  };
  const subjectsOf = (r: Rule) =>
    [
      ...r.filters.wallets.map(shortAddress),
      ...r.filters.markets.map(shortAddress),
      ...r.filters.categories,
      ...r.filters.cities,
    ].join(", ") || "anywhere";
  return (
    <>
      {props.list.length === 0 ? (
        <Empty>No rule yet.</Empty>
      ) : (
        <Table caption="Rules" head={["Name", "Kind", "Watching", "Side", "From", "Status", ""]} numeric={[4]}>
          {props.list.map((r) => (
            <tr key={r.id}>
              <td>{r.name}</td>
              <td>{r.webhook_format === "isw" ? `${r.kind} (territory webhook registration)` : r.kind}</td>
              <td>{subjectsOf(r)}</td>
              <td>{r.filters.side}</td>
              <td class="num">{usd(r.filters.min_usd)}</td>
              <td>{r.status}</td>
              <td>
                <button type="button" onClick={() => act(r.id, r.status === "active" ? "pause" : "resume")}>
                  {r.status === "active" ? "Pause" : "Resume"}
                </button>{" "}
                <button type="button" onClick={() => act(r.id, "delete")}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
      <form class="filters" onSubmit={add} aria-label="Add a rule">
        <label>
          Name
          <input name="name" required maxLength={100} />
        </label>
        <label>
          Kind
          <select value={kind} onChange={(e) => setKind((e.currentTarget as HTMLSelectElement).value as Kind)}>
            <option value="wallet_trade">A wallet trades</option>
            <option value="market_whale_trade">A whale trades a market</option>
            <option value="whale_trade">A whale trades anywhere</option>
            <option value="smart_new_market">Smart Money opens a market</option>
            <option value="price_move">A market's price moves</option>
            <option value="territory_event">A territory event</option>
            <option value="consensus_flip">A market's consensus flips</option>
            <option value="insider_alert">A bet scores as an insider's</option>
          </select>
        </label>
        {kind === "insider_alert" ? (
          <label>
            Least insider score
            <input name="min_score" type="number" min="0" max="100" step="any" placeholder="80" />
          </label>
        ) : null}
        {kind === "territory_event" ? (
          <label>
            Least severity
            <select name="min_severity">
              <option value="">Any</option>
              {["LOW", "MEDIUM", "HIGH", "CRITICAL"].map((level) => (
                <option key={level} value={level}>
                  {level}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        {kind === "whale_trade" || kind === "smart_new_market" ? null : (
          <label>
            {kind === "wallet_trade"
              ? "Wallets"
              : kind === "territory_event"
                ? "Cities (none: all)"
                : kind === "insider_alert"
                  ? "Markets (condition ids; none: all)"
                  : "Markets (condition ids)"}
            <input name="subjects" placeholder="0x…, 0x…" />
          </label>
        )}
        {kind === "price_move" ? (
          <>
            <label>
              Move (points)
              <input name="min_points" type="number" min="0.1" max="100" step="any" required />
            </label>
            <label>
              Within (minutes)
              <input name="window_minutes" type="number" min="1" max="1440" step="1" placeholder="60" />
            </label>
          </>
        ) : null}
        {kind === "market_whale_trade" ||
        kind === "price_move" ||
        kind === "territory_event" ||
        kind === "consensus_flip" ? null : (
          <label>
            Categories
            <input name="categories" placeholder="sports, crypto" />
          </label>
        )}
        <label>
          Side
          <select
            name="side"
            disabled={["smart_new_market", "price_move", "territory_event", "consensus_flip", "insider_alert"].includes(
              kind,
            )}
          >
            <option value="both">Both</option>
            <option value="buy">Buy</option>
            <option value="sell">Sell</option>
          </select>
        </label>
        <label>
          At least (USD)
          <input
            name="min_usd"
            type="number"
            min="0"
            step="any"
            disabled={["price_move", "territory_event", "consensus_flip", "insider_alert"].includes(kind)}
          />
        </label>
        <fieldset>
          <legend>Send to</legend>
          {props.destinations.map((d) => (
            <label key={d.id}>
              <input type="checkbox" name="destination" value={d.id} /> {d.name}
            </label>
          ))}
        </fieldset>
        <button type="submit">Add rule</button>
      </form>
      <p class="note small" aria-live="polite" data-testid="rule-message">
        {message}
      </p>
    </>
  );
}

function Deliveries(props: { keyed: string; version: number }) {
  const [tick, setTick] = useState(0);
  useEvery(5_000, () => setTick((n) => n + 1), []);
  const log = useLoad(
    () => api.GET("/api/v2/alerts/deliveries", { params: { query: { limit: 50 } }, headers: headers() }),
    [props.keyed, props.version, tick],
  );
  return (
    <Show loaded={log}>
      {(l) =>
        l.count === 0 ? (
          <Empty>No delivery yet.</Empty>
        ) : (
          <Table caption="Recent deliveries" head={["When", "Rule", "To", "Trade", "Status", "Attempts"]} numeric={[5]}>
            {l.deliveries.map((d) => {
              const trade = (d.alert as { trade?: { wallet: string; side: string; outcome: string; usd: number } })
                .trade;
              return (
                <tr key={d.id}>
                  <td>{when(Math.floor(d.created_at_ms / 1000))}</td>
                  <td>{d.rule_id ?? "test"}</td>
                  <td>{d.destination_id}</td>
                  <td>
                    {trade ? `${shortAddress(trade.wallet)} ${trade.side} ${trade.outcome} ${usd(trade.usd)}` : "–"}
                  </td>
                  <td
                    class={d.status === "delivered" ? "up" : d.status === "pending" ? "" : "down"}
                    title={d.last_error ?? undefined}
                  >
                    {d.status}
                    {d.last_status ? ` (${d.last_status})` : ""}
                    {d.status === "pending" && d.next_attempt_at ? `, next ${when(d.next_attempt_at)}` : ""}
                  </td>
                  <td class="num">{d.attempts}</td>
                </tr>
              );
            })}
          </Table>
        )
      }
    </Show>
  );
}

function Manage(props: { keyed: string }) {
  const [version, setVersion] = useState(0);
  const [destinationMessage, setDestinationMessage] = useState("");
  const [ruleMessage, setRuleMessage] = useState("");
  const changed = () => setVersion((n) => n + 1);
  const destinations = useLoad(
    () => api.GET("/api/v2/alerts/destinations", { headers: headers() }),
    [props.keyed, version],
  );
  const rules = useLoad(() => api.GET("/api/v2/alerts/rules", { headers: headers() }), [props.keyed, version]);
  return (
    <>
      <Section
        title="Destinations"
        note="Where alerts go: a signed webhook, a Telegram chat, a Discord or Slack webhook."
        wide
      >
        <Show loaded={destinations}>
          {(d) => (
            <Destinations
              list={d.destinations}
              changed={changed}
              said={{ message: destinationMessage, setMessage: setDestinationMessage }}
            />
          )}
        </Show>
      </Section>
      <Section
        title="Rules"
        note="What you want to hear: each trade that matches is sent once to the rule's destinations."
        wide
      >
        <Show loaded={destinations}>
          {(d) => (
            <Show loaded={rules}>
              {(r) => (
                <Rules
                  list={r.rules}
                  destinations={d.destinations}
                  changed={changed}
                  said={{ message: ruleMessage, setMessage: setRuleMessage }}
                />
              )}
            </Show>
          )}
        </Show>
      </Section>
      <Section title="Recent deliveries" note="Newest first, with their status, attempts and next retry." wide>
        <Deliveries keyed={props.keyed} version={version} />
      </Section>
    </>
  );
}

export function AlertsPage() {
  const [key, setKey] = useState<string | null>(premiumKey.get() || null);
  return (
    <>
      <div class="page-head">
        <h1>Your alerts</h1>
      </div>
      <div class="grid">
        <Section title="Your key" note="Alerts are Premium." wide>
          <KeyForm onPremium={setKey} />
        </Section>
        {key ? (
          <Manage keyed={key} />
        ) : (
          <Section title="Alerts" wide>
            <Empty>Enter a Premium key above to manage your alert rules and destinations.</Empty>
          </Section>
        )}
      </div>
    </>
  );
}
