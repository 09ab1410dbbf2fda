/**
 * An alert written for its place: a Standard Webhooks POST (`{type, timestamp, data}` signed like the territory
 * webhooks), Telegram's `sendMessage` (HTML), a Discord embed, Slack blocks. Each says the wallet, the market, the
 * side and outcome, the size, the price and the USD, and links to the dashboard's pages. `goneStatuses` are the
 * answers that mean the destination no longer exists (it is then disabled).
 */
import { signedHeaders } from "./webhooks/signing.js";
import {
  discordRequest,
  escapeHtml,
  slackRequest,
  telegramRequest,
  type OutgoingRequest,
} from "./platform-requests.js";
import { formatEventAlert } from "./event-formats.js";
import type { AlertEvent, AlertTrade } from "./alert-event.js";
import type { DestinationSecrets } from "./destinations.js";
import type { DestinationKind } from "./tables.js";

/**
 * Webhook: 410 Gone (Standard Webhooks). Telegram: 401 (the token was revoked), 403 (the bot was blocked or removed
 * from the chat). Discord: 401, 404 (Unknown Webhook: deleted). Slack: 403 (invalid_token, action_prohibited), 404
 * (no_service), 410 (channel_is_archived).
 */
export const GONE_STATUSES: Readonly<Record<DestinationKind, readonly number[]>> = {
  webhook: [410],
  telegram: [401, 403],
  discord: [401, 404],
  slack: [403, 404, 410],
};

/**
 * The wait (seconds) a platform's 429 body asks for when its header does not: Telegram `parameters.retry_after`,
 * Discord `retry_after` (seconds, fractional). Null when it names none.
 */
export function retryAfterInBody(kind: DestinationKind, body: string | null | undefined): number | null {
  if (!body || (kind !== "telegram" && kind !== "discord")) return null;
  try {
    const parsed = JSON.parse(body) as { retry_after?: unknown; parameters?: { retry_after?: unknown } };
    const seconds = kind === "telegram" ? parsed.parameters?.retry_after : parsed.retry_after;
    return typeof seconds === "number" && Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds) : null;
  } catch {
    return null;
  }
}

const money = (usd: number) =>
  `$${usd.toLocaleString("en-US", { minimumFractionDigits: 0, maximumFractionDigits: usd < 100 ? 2 : 0 })}`;
const shares = (n: number) => n.toLocaleString("en-US", { maximumFractionDigits: 2 });
const shortWallet = (wallet: string) => `${wallet.slice(0, 6)}…${wallet.slice(-4)}`;

/** An alert about a trade (every kind but territory_event). */
type TradeAlert = AlertEvent & { readonly trade: AlertTrade; readonly links: { readonly wallet: string } };

/** The words every chat message shares. */
function words(event: TradeAlert) {
  const { trade } = event;
  const action = trade.side === "BUY" ? "bought" : "sold";
  const { move } = event;
  const what = move
    ? `YES moved ${move.to >= move.from ? "up" : "down"} from ${move.from.toFixed(3)} to ${move.to.toFixed(3)} in ${move.window_minutes} min`
    : `${shortWallet(trade.wallet)} ${action} ${trade.outcome}`;
  const title = `${event.test ? "[test] " : ""}${event.rule?.name ?? "Pelagic alert"}: ${what}`;
  return {
    title,
    market: trade.market_question ?? trade.condition_id,
    side: `${trade.side} ${trade.outcome}`,
    size: `${shares(trade.shares)} shares at ${trade.price.toFixed(3)}`,
    usd: money(trade.usd),
    when: new Date(trade.ts * 1_000).toISOString(),
  };
}

function telegram(event: TradeAlert, secrets: DestinationSecrets, apiUrl: string): OutgoingRequest {
  const w = words(event);
  const market = event.links.market
    ? `<a href="${escapeHtml(event.links.market)}">${escapeHtml(w.market)}</a>`
    : escapeHtml(w.market);
  const text = [
    `<b>${escapeHtml(w.title)}</b>`,
    `Market: ${market}`,
    `Wallet: <a href="${escapeHtml(event.links.wallet)}">${event.trade.wallet}</a>`,
    `${w.side}: ${w.size} = <b>${w.usd}</b>`,
    `<i>${w.when}</i>`,
  ].join("\n");
  return telegramRequest(apiUrl, secrets, text);
}

function discord(event: TradeAlert, secrets: DestinationSecrets): OutgoingRequest {
  const w = words(event);
  const field = (name: string, value: string) => ({ name, value, inline: true });
  const embed = {
    title: w.title.slice(0, 256),
    url: event.links.market ?? event.links.wallet,
    description: w.market.slice(0, 4_000),
    color: event.trade.side === "BUY" ? 0x2e_cc_71 : 0xe7_4c_3c,
    fields: [
      field("Wallet", `[${shortWallet(event.trade.wallet)}](${event.links.wallet})`),
      field("Side", w.side),
      field("Size", w.size),
      field("USD", w.usd),
    ],
    timestamp: w.when,
    footer: { text: "Pelagic" },
  };
  return discordRequest(secrets, embed);
}

function slack(event: TradeAlert, secrets: DestinationSecrets): OutgoingRequest {
  const w = words(event);
  const market = event.links.market ? `<${event.links.market}|${escapeHtml(w.market)}>` : escapeHtml(w.market);
  const mrkdwn = (text: string) => ({ type: "mrkdwn", text });
  const blocks = [
    { type: "header", text: { type: "plain_text", text: w.title.slice(0, 150) } },
    {
      type: "section",
      text: mrkdwn(`*${market}*`),
      fields: [
        mrkdwn(`*Wallet*\n<${event.links.wallet}|${shortWallet(event.trade.wallet)}>`),
        mrkdwn(`*Side*\n${w.side}`),
        mrkdwn(`*Size*\n${w.size}`),
        mrkdwn(`*USD*\n${w.usd}`),
      ],
    },
    { type: "context", elements: [mrkdwn(`Pelagic · ${w.when}`)] },
  ];
  return slackRequest(secrets, `${w.title}: ${w.market} (${w.usd})`, blocks);
}

/** The request that delivers `event` to a destination of `kind`; `nowSeconds` is the webhook's timestamp. */
export function formatAlert(
  kind: DestinationKind,
  event: AlertEvent,
  secrets: DestinationSecrets,
  input: { messageId: string; nowSeconds: number; telegramApiUrl: string },
): OutgoingRequest {
  if (kind === "webhook") {
    const body =
      event.webhook_body ??
      JSON.stringify({ type: event.type, timestamp: new Date(input.nowSeconds * 1_000).toISOString(), data: event });
    return {
      url: new URL(secrets.url!),
      headers: signedHeaders(secrets.secret!, input.messageId, input.nowSeconds, body),
      body,
    };
  }
  if (event.trade === null || event.links.wallet === null) return formatEventAlert(kind, event, secrets, input);
  const trade = event as TradeAlert;
  switch (kind) {
    case "telegram":
      return telegram(trade, secrets, input.telegramApiUrl);
    case "discord":
      return discord(trade, secrets);
    case "slack":
      return slack(trade, secrets);
  }
}
