/** The small pieces every page is made of. */
import type { ComponentChildren } from "preact";
import type { Loaded } from "../api.js";
import { href } from "../router.js";

export function Section(props: {
  title: string;
  id?: string;
  note?: ComponentChildren;
  children: ComponentChildren;
  wide?: boolean;
}) {
  const id = props.id ?? props.title.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  return (
    <section class={props.wide ? "card wide" : "card"} aria-labelledby={id} data-section={id}>
      <h2 id={id}>{props.title}</h2>
      {props.note ? <p class="note">{props.note}</p> : null}
      {props.children}
    </section>
  );
}

/** Renders the answer once loaded; a short status line while loading or when the call failed. */
export function Show<T>(props: { loaded: Loaded<T>; children: (data: T) => ComponentChildren }) {
  const { loaded } = props;
  if (loaded.state === "loading")
    return (
      <p class="status" aria-busy="true">
        Loading…
      </p>
    );
  if (loaded.state === "error")
    return (
      <p class="status error" role="alert">
        {loaded.status ? `${loaded.status}: ` : ""}
        {loaded.detail}
      </p>
    );
  return <>{props.children(loaded.data)}</>;
}

export function Empty(props: { children: ComponentChildren }) {
  return <p class="status empty">{props.children}</p>;
}

/** A figure with its label and, under it, where it comes from. */
export function Stat(props: { label: string; value: ComponentChildren; source?: ComponentChildren; tone?: string }) {
  return (
    <div class="stat">
      <dt>{props.label}</dt>
      <dd class={props.tone ?? ""} title={typeof props.source === "string" ? props.source : undefined}>
        {props.value}
      </dd>
      {props.source ? <dd class="source">{props.source}</dd> : null}
    </div>
  );
}

/** A market's question, linked to its page when the market is stored. */
export function MarketLink(props: { id: string | null; label: string }) {
  return props.id ? <a href={href.market(props.id)}>{props.label}</a> : props.label;
}

/** A row of buttons choosing one of a few values (the chosen one pressed), e.g. a chart's period. */
export function Choice<T extends string | number>(props: {
  legend: string;
  options: ReadonlyArray<readonly [T, string]>;
  value: T;
  onChange: (value: T) => void;
  children?: ComponentChildren;
}) {
  return (
    <fieldset class="tabs">
      <legend class="visually-hidden">{props.legend}</legend>
      {props.options.map(([value, label]) => (
        <button type="button" key={value} aria-pressed={value === props.value} onClick={() => props.onChange(value)}>
          {label}
        </button>
      ))}
      {props.children}
    </fieldset>
  );
}

/** A line of values as a small inline chart (no axes), with its range as the accessible label. */
export function Sparkline(props: { values: number[]; label: string; width?: number; height?: number }) {
  const { values } = props;
  const width = props.width ?? 120;
  const height = props.height ?? 28;
  if (values.length < 2) return <span class="muted">–</span>;
  const min = Math.min(...values);
  const max = Math.max(...values);
  const span = max - min || 1;
  const points = values
    .map(
      (v, i) =>
        `${((i / (values.length - 1)) * width).toFixed(1)},${(height - 2 - ((v - min) / span) * (height - 4)).toFixed(1)}`,
    )
    .join(" ");
  const rising = values[values.length - 1]! >= values[0]!;
  return (
    <svg
      class={`spark ${rising ? "up" : "down"}`}
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={props.label}
    >
      <polyline points={points} fill="none" stroke="currentColor" stroke-width="1.5" />
    </svg>
  );
}

/** Two shares side by side (YES against NO), with their labels written out for screen readers. */
export function SplitBar(props: {
  left: number;
  right: number;
  leftLabel: string;
  rightLabel: string;
  caption?: string;
}) {
  const total = props.left + props.right;
  const share = total > 0 ? (props.left / total) * 100 : 50;
  return (
    <figure class="split">
      <div
        class="split-bar"
        role="img"
        aria-label={`${props.leftLabel} ${share.toFixed(0)}%, ${props.rightLabel} ${(100 - share).toFixed(0)}%`}
      >
        <span class="yes" style={{ width: `${share}%` }} />
        <span class="no" style={{ width: `${100 - share}%` }} />
      </div>
      <figcaption>
        <span class="yes-text">
          {props.leftLabel} {share.toFixed(0)}%
        </span>
        {props.caption ? <span class="muted">{props.caption}</span> : null}
        <span class="no-text">
          {props.rightLabel} {(100 - share).toFixed(0)}%
        </span>
      </figcaption>
    </figure>
  );
}

/** A table that scrolls sideways on a narrow screen instead of squeezing its columns. */
export function Table(props: { caption: string; head: string[]; children: ComponentChildren; numeric?: number[] }) {
  return (
    <div class="table-wrap">
      <table>
        <caption class="visually-hidden">{props.caption}</caption>
        <thead>
          <tr>
            {props.head.map((h, i) => (
              <th scope="col" class={props.numeric?.includes(i) ? "num" : ""} key={h}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}
