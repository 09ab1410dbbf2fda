/**
 * The raw relay's trades as they arrive: a fetch() stream with the Premium key in X-API-Key (a browser's
 * EventSource cannot send a header), its `event: trade` frames parsed as they come, the latest first.
 */
import { useEffect, useState } from "preact/hooks";
import { premiumKey, type paths } from "../api.js";
import { cents, shortAddress, usd } from "../format.js";
import { href } from "../router.js";
import { Empty } from "./ui.js";

type RelayTrade = paths["/api/public/v1/live/trades"]["get"]["responses"][200]["content"]["text/event-stream"];

const KEPT = 12;

/** Splits an SSE byte stream into its events (name and data), across chunk boundaries. */
export async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<{ event: string; data: string }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const lines = frame.split("\n");
      const event =
        lines
          .find((l) => l.startsWith("event:"))
          ?.slice(6)
          .trim() ?? "message";
      const data = lines
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5).trim())
        .join("\n");
      if (data) yield { event, data };
      end = buffer.indexOf("\n\n");
    }
  }
}

export function LiveTrades() {
  const key = premiumKey.get();
  const [trades, setTrades] = useState<RelayTrade[]>([]);
  const [status, setStatus] = useState(key ? "connecting…" : "");
  useEffect(() => {
    if (!key) return;
    const abort = new AbortController();
    (async () => {
      const response = await fetch("/api/public/v1/live/trades", {
        headers: premiumKey.headers(),
        signal: abort.signal,
      });
      if (!response.ok || !response.body) {
        const body = (await response.json().catch(() => ({}))) as { detail?: string };
        setStatus(`${response.status}: ${body.detail ?? response.statusText}`);
        return;
      }
      setStatus("live");
      for await (const { event, data } of sseEvents(response.body)) {
        if (event === "trade") setTrades((kept) => [JSON.parse(data) as RelayTrade, ...kept].slice(0, KEPT));
        else if (event === "error") setStatus(`stream ended: ${data}`);
      }
    })().catch((error: unknown) => !abort.signal.aborted && setStatus(`stream ended: ${String(error)}`));
    return () => abort.abort();
  }, [key]);

  if (!key) {
    return (
      <Empty>
        The live feed is Premium: enter your key on the <a href={href.premium()}>whale alerts</a> page to watch trades
        here.
      </Empty>
    );
  }
  return (
    <>
      <p class="note" aria-live="polite">
        <span class={status === "live" ? "dot live" : "dot"} aria-hidden="true" /> {status}
      </p>
      {trades.length === 0 ? (
        <Empty>Waiting for the next trade…</Empty>
      ) : (
        <ul class="feed" data-testid="live-trades">
          {trades.map((t) => (
            <li key={`${t.transactionHash}-${t.proxyWallet}-${t.asset}`}>
              <a href={href.wallet(t.proxyWallet)}>{t.name ?? t.pseudonym ?? shortAddress(t.proxyWallet)}</a>{" "}
              <span class={t.side === "BUY" ? "up" : "down"}>{t.side}</span> {t.outcome ?? ""} @ {cents(t.price)} ·{" "}
              {usd(t.size * t.price)}
              <div class="muted small">{t.title}</div>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
