/**
 * The territory monitor: every subscription drawn on a plain SVG map (an equirectangular projection scaled by the
 * cosine of the middle latitude; no tiles, so it works offline), coloured by its threat level, with the cities,
 * the summary by level, the event list and, with the user's Premium key, the wallets that traded ahead of the news.
 */
import { useState } from "preact/hooks";
import { api, premiumKey, useLoad, type Answer } from "../api.js";
import { Empty, MarketLink, Section, Show, Stat, Table } from "../components/ui.js";
import { cents, count, pct, shortAddress, usd, when } from "../format.js";
import { href } from "../router.js";

type Status = Answer<"/api/v2/isw/status">;
type Layers = Answer<"/api/v2/isw/layers">;
/** How each shaded layer is drawn, bottom first. */
const LAYER_STYLES: Record<string, { fill: string; label: string }> = {
  control: { fill: "#b71c1c", label: "Russian control" },
  advance: { fill: "#ff7043", label: "Assessed advances" },
  infiltration: { fill: "#ffb74d", label: "Infiltration" },
  gains24h: { fill: "#fff176", label: "Gains, last 24 h" },
};
type Subscription = Status["cities"][string]["subscriptions"][number];
const LEVELS = ["SAFE", "LOW", "MEDIUM", "HIGH", "CRITICAL"] as const;
const COLOURS: Record<string, string> = {
  SAFE: "#43a047",
  LOW: "#c0ca33",
  MEDIUM: "#ffa000",
  HIGH: "#f4511e",
  CRITICAL: "#e53935",
  none: "#78909c",
};
const WIDTH = 800;

function Threat(props: { level: string | null }) {
  const level = props.level ?? "none";
  return <span class={`badge threat-${level}`}>{props.level ?? "not measured"}</span>;
}

/** Projects [lon, lat] into the SVG's box, keeping distances true near the map's middle latitude. */
function projection(points: number[][]) {
  const lons = points.map((p) => p[0]!);
  const lats = points.map((p) => p[1]!);
  const pad = 0.15;
  const [minLon, maxLon] = [Math.min(...lons) - pad, Math.max(...lons) + pad];
  const [minLat, maxLat] = [Math.min(...lats) - pad, Math.max(...lats) + pad];
  const k = Math.cos((((minLat + maxLat) / 2) * Math.PI) / 180);
  const scale = WIDTH / ((maxLon - minLon) * k);
  const height = Math.max(240, Math.round((maxLat - minLat) * scale));
  return {
    height,
    at: (lon: number, lat: number): [number, number] => [(lon - minLon) * k * scale, height - (lat - minLat) * scale],
  };
}

function TerritoryMap(props: { status: Status; layers: Layers | null }) {
  const cities = Object.entries(props.status.cities);
  const subscriptions = cities.flatMap(([city, c]) => c.subscriptions.map((s) => ({ city, s })));
  const points = [
    ...cities.map(([, c]) => [c.coordinates.lon, c.coordinates.lat]),
    ...subscriptions.flatMap(({ s }) => s.geometry),
  ];
  if (points.length === 0) return <Empty>No city is watched yet.</Empty>;
  const { height, at } = projection(points);
  const ring = (points: number[][]) =>
    `${points
      .map(
        ([lon, lat], i) =>
          `${i === 0 ? "M" : "L"}${at(lon!, lat!)
            .map((v) => v.toFixed(1))
            .join(",")}`,
      )
      .join("")}Z`;
  const path = (s: Subscription) => ring(s.geometry);
  const layers = (props.layers?.layers ?? []).filter((l) => LAYER_STYLES[l.layer]);
  layers.sort((a, b) => Object.keys(LAYER_STYLES).indexOf(a.layer) - Object.keys(LAYER_STYLES).indexOf(b.layer));
  return (
    <figure>
      <svg
        class="map"
        viewBox={`0 0 ${WIDTH} ${height}`}
        role="img"
        aria-label={`Map of ${cities.length} watched cities and ${subscriptions.length} subscriptions, coloured by threat, over the shaded layers`}
        data-testid="territory-map"
      >
        <defs>
          <clipPath id="map-box">
            <rect width={WIDTH} height={height} />
          </clipPath>
        </defs>
        <g clip-path="url(#map-box)">
          {layers.map((l) => (
            <path
              key={l.layer}
              data-layer={l.layer}
              d={l.polygons.map((p) => p.map(ring).join("")).join("")}
              fill={LAYER_STYLES[l.layer]!.fill}
              fill-opacity="0.45"
              fill-rule="evenodd"
              stroke="none"
            />
          ))}
        </g>
        {subscriptions
          .filter(({ s }) => s.geometry.length > 2)
          .map(({ city, s }) => (
            <path
              key={s.id}
              d={path(s)}
              fill={COLOURS[s.threat ?? "none"]}
              fill-opacity="0.35"
              stroke={COLOURS[s.threat ?? "none"]}
              stroke-width="1.5"
              data-subscription={s.id}
            >
              <title>
                {city}: {s.label} ({s.threat ?? "not measured"})
              </title>
            </path>
          ))}
        {cities.map(([name, c]) => {
          const [x, y] = at(c.coordinates.lon, c.coordinates.lat);
          return (
            <g key={name} data-city={name}>
              <circle
                cx={x}
                cy={y}
                r="5"
                fill={COLOURS[c.worst_threat ?? "none"]}
                stroke="#0b1622"
                stroke-width="1.5"
              />
              <text x={x + 7} y={y + 4} fill="#e8eef4" font-size="12">
                {name}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption>
        <ul class="legend" aria-label="Shaded layers">
          {layers.map((l) => (
            <li key={l.layer}>
              <span
                class="swatch"
                style={{ background: LAYER_STYLES[l.layer]!.fill, opacity: 0.7 }}
                aria-hidden="true"
              />
              {LAYER_STYLES[l.layer]!.label}
            </li>
          ))}
        </ul>
        <ul class="legend" aria-label="Threat levels">
          {[...LEVELS, "none"].map((level) => (
            <li key={level}>
              <span class="swatch" style={{ background: COLOURS[level] }} aria-hidden="true" />
              {level === "none" ? "not measured" : level}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}

function Cities(props: { status: Status }) {
  const rows = Object.entries(props.status.cities).flatMap(([city, c]) => c.subscriptions.map((s) => ({ city, s })));
  return (
    <Table caption="Subscriptions" head={["City", "Subscription", "Threat", "Coverage or distance", "Market"]}>
      {rows.map(({ city, s }) => (
        <tr key={s.id} data-testid="subscription">
          <td>{city}</td>
          <td>{s.label}</td>
          <td>
            <Threat level={s.threat} />
          </td>
          <td class="small">
            {s.coverage !== undefined && s.coverage !== null
              ? `${pct(s.coverage * 100)} shaded`
              : s.closest_distance_m === null
                ? "–"
                : `${(s.closest_distance_m / 1000).toFixed(1)} km away`}
          </td>
          <td class="small">
            {s.market ? (
              <a href={href.market(s.market.id)}>{s.market.question}</a>
            ) : (
              <span class="muted">{s.market_slug_pattern}</span>
            )}
          </td>
        </tr>
      ))}
    </Table>
  );
}

function Events() {
  const [hours, setHours] = useState(720);
  const events = useLoad(() => api.GET("/api/v2/isw/events", { params: { query: { hours, limit: 100 } } }), [hours]);
  return (
    <>
      <fieldset class="tabs">
        <legend class="visually-hidden">Window</legend>
        {[24, 168, 720].map((h) => (
          <button type="button" key={h} aria-pressed={h === hours} onClick={() => setHours(h)}>
            {h === 24 ? "24 hours" : h === 168 ? "7 days" : "30 days"}
          </button>
        ))}
      </fieldset>
      <Show loaded={events}>
        {(data) =>
          data.events.length === 0 ? (
            <Empty>No event in this window.</Empty>
          ) : (
            <ul class="feed" data-testid="events">
              {data.events.map((e) => (
                <li key={e.id}>
                  <Threat level={e.severity} /> <strong>{e.event_type}</strong> {e.city}: {e.details}
                  <div class="muted small">
                    {e.subscription_label} · {when(e.timestamp)}
                  </div>
                </li>
              ))}
            </ul>
          )
        }
      </Show>
    </>
  );
}

/** Wallets that traded toward a territory event's move in the hours before it (Premium). */
function AheadOfNews() {
  const key = premiumKey.get();
  const signals = useLoad(
    () =>
      key
        ? api.GET("/api/v2/ahead-of-news", {
            params: { query: { days: 30, limit: 50 } },
            headers: premiumKey.headers(),
          })
        : Promise.reject(new Error("no key")),
    [key],
  );
  if (!key)
    return (
      <Empty>
        <span data-testid="ahead-premium">
          Who traded ahead of the news is Premium: enter a key on the <a href={href.premium()}>whale alerts</a> page.
        </span>
      </Empty>
    );
  return (
    <Show loaded={signals}>
      {(a) =>
        a.signals.length === 0 ? (
          <Empty>No wallet traded ahead of an event that moved its market in the last 30 days.</Empty>
        ) : (
          <ul class="feed" data-testid="ahead-signals">
            {a.signals.map((x) => (
              <li key={`${x.event.id}-${x.condition_id}-${x.wallet}`} data-testid="ahead-signal">
                <a href={href.wallet(x.wallet)}>{shortAddress(x.wallet)}</a> bought {x.outcome} for {usd(x.usd)}{" "}
                {x.lead_hours.toFixed(1)} h before <strong>{x.event.event_type}</strong> {x.event.subscription_label}
                <div class="muted small">
                  <MarketLink id={x.market_id} label={x.market_title} /> moved {cents(x.price_before)} to{" "}
                  {cents(x.price_after)} (YES) · gain {usd(x.gain_usd)} · {when(x.event.timestamp)}
                </div>
              </li>
            ))}
          </ul>
        )
      }
    </Show>
  );
}

export function TerritoryPage() {
  const status = useLoad(() => api.GET("/api/v2/isw/status"), []);
  const layers = useLoad(() => api.GET("/api/v2/isw/layers"), []);
  return (
    <>
      <div class="page-head">
        <h1>Territory monitor</h1>
      </div>
      <Show loaded={status}>
        {(s) => (
          <div class="grid">
            <Section
              title="Threat levels"
              note={`Last look at the map: ${when(Object.values(s.cities)[0]?.last_check ?? null)}${s.stale ? " (last good answer)" : ""}.`}
              wide
            >
              <dl class="stats" data-testid="threat-summary">
                <Stat label="Cities" value={count(s.summary.total_cities)} />
                <Stat label="Subscriptions" value={count(s.summary.total_subscriptions)} />
                {LEVELS.map((level) => (
                  <Stat key={level} label={level} value={count(s.summary.threats_by_subscription[level])} />
                ))}
              </dl>
            </Section>
            <Section
              title="Map"
              note="The shaded layers of the newest map, each subscription's area coloured by its threat level, and the cities (dots) at their worst level."
              wide
            >
              <TerritoryMap status={s} layers={layers.state === "ok" ? layers.data : null} />
            </Section>
            <Section title="Subscriptions" wide>
              <Cities status={s} />
            </Section>
            <Section title="Events" wide>
              <Events />
            </Section>
            <Section
              title="Traded ahead of the news"
              note="Wallets on the side a linked market moved to after a capture or a critical or high threat, in the hours before it."
              wide
            >
              <AheadOfNews />
            </Section>
          </div>
        )}
      </Show>
    </>
  );
}
