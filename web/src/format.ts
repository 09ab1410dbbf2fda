/** How figures are written on every page. */
const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });
const whole = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

export function usd(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "–";
  const sign = value < 0 ? "−" : "";
  const abs = Math.abs(value);
  return `${sign}$${abs >= 10_000 ? compact.format(abs) : whole.format(abs)}`;
}

export function signedUsd(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "–";
  return value > 0 ? `+${usd(value)}` : usd(value);
}

export function count(value: number | null | undefined): string {
  return value === null || value === undefined ? "–" : whole.format(value);
}

/** A percentage given in percent (55.2 → "55.2%"). */
export function pct(value: number | null | undefined, digits = 1): string {
  return value === null || value === undefined || !Number.isFinite(value) ? "–" : `${value.toFixed(digits)}%`;
}

/** A price in 0..1 as cents ("42¢"). */
export function cents(price: number | null | undefined): string {
  return price === null || price === undefined
    ? "–"
    : `${(price * 100).toFixed(price < 0.01 || price > 0.99 ? 1 : 0)}¢`;
}

export function shortAddress(address: string): string {
  return address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}

/** Unix seconds or ISO text as a short UTC date and time. */
export function when(time: number | string | null | undefined): string {
  if (time === null || time === undefined || time === "") return "–";
  const date = typeof time === "number" ? new Date(time * 1000) : new Date(time);
  return Number.isNaN(date.getTime()) ? "–" : `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

export function ago(unixSeconds: number, now = Date.now() / 1000): string {
  const s = Math.max(0, Math.round(now - unixSeconds));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.round(s / 60)}m ago`;
  if (s < 86_400) return `${Math.round(s / 3600)}h ago`;
  return `${Math.round(s / 86_400)}d ago`;
}

/** The class a signed figure is shown with. */
export function tone(value: number | null | undefined): string {
  return value === null || value === undefined || value === 0 ? "" : value > 0 ? "up" : "down";
}
