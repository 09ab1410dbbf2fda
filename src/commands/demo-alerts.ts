/**
 * The alerts part of `pelagic demo` (issue 51): loopback stand-ins of a webhook consumer, Telegram, Discord and Slack
 * (src/sim/servers/chat-platforms.ts) that the alerts' settings point at; a webhook destination made through the
 * API with a demo key; the curl lines that add a rule on the leaderboard's first whale (and the other kinds of
 * destination); and a line printed for each alert a stand-in receives.
 */
import { createKey, revokeAccountKeys } from "../accounts/keys.js";
import { alertsDb } from "../alerts/tables.js";
import type { Config } from "../config/index.js";
import type { Service } from "../runtime/index.js";
import type { ChatPlatforms, Received } from "../sim/servers/chat-platforms.js";

const DEMO_ACCOUNT = "demo-alerts";

/** The alerts' destinations on loopback: the stand-ins' addresses, and links to the demo's own dashboard. */
export function demoAlertsConfig(config: Config, platforms: ChatPlatforms): Config {
  return {
    ...config,
    alerts: {
      ...config.alerts,
      allowLoopback: true,
      telegramApiUrl: platforms.urls.telegramApi,
      discordWebhookPrefix: platforms.urls.discordPrefix,
      slackWebhookPrefix: platforms.urls.slackPrefix,
      dashboardUrl: `http://${config.server.host}:${config.server.port}`,
    },
  };
}

function describeAlert(received: Received): string {
  const body = received.body as Record<string, unknown>;
  if (received.platform === "webhook") {
    const data = body.data as {
      trade: { wallet: string; side: string; outcome: string; usd: number; market_question: string | null } | null;
      territory?: { event_type: string; city: string; severity: string };
    };
    const trade = data.trade;
    if (!trade)
      return `alert received by the webhook (signature ${received.signed ? "verified" : "NOT verified"}): ${data.territory?.event_type} in ${data.territory?.city} (${data.territory?.severity})`;
    return `alert received by the webhook (signature ${received.signed ? "verified" : "NOT verified"}): ${trade.wallet} ${trade.side} ${trade.outcome} $${trade.usd.toFixed(2)} on ${trade.market_question ?? "?"}`;
  }
  if (received.platform === "telegram") return `alert received by Telegram: ${String(body.text).split("\n")[0]}`;
  if (received.platform === "discord")
    return `alert received by Discord: ${(body.embeds as Array<{ title: string }>)[0]?.title ?? ""}`;
  return `alert received by Slack: ${String(body.text)}`;
}

export interface DemoAlerts {
  readonly platforms: ChatPlatforms;
  readonly key: string;
  readonly destinationId: number | null;
}

/** Makes the demo's key and webhook destination (dropping an earlier run's), and prints what the stand-ins receive. */
export async function startDemoAlerts(
  service: Service,
  platforms: ChatPlatforms,
  print: (line: string) => void,
): Promise<DemoAlerts> {
  const db = alertsDb(service.store.db);
  const now = service.platform.clock.now();
  await db.deleteFrom("alert_rules").where("account", "=", DEMO_ACCOUNT).execute();
  await db.deleteFrom("alert_destinations").where("account", "=", DEMO_ACCOUNT).execute();
  await revokeAccountKeys(service.store.db, DEMO_ACCOUNT, now);
  const { key } = await createKey(service.store.db, { account: DEMO_ACCOUNT, plan: "premium", now });
  const response = await fetch(`${service.url}/api/v2/alerts/destinations`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key },
    body: JSON.stringify({ kind: "webhook", name: "demo receiver", url: platforms.urls.webhook }),
  });
  const created = (await response.json()) as { id?: number; secret?: string | null; detail?: unknown };
  if (!response.ok) print(`  (the demo's alert destination failed: ${JSON.stringify(created.detail)})`);
  if (created.secret) platforms.setWebhookSecret(created.secret);
  platforms.onReceived = (received) => print(describeAlert(received));
  return { platforms, key, destinationId: created.id ?? null };
}

/** The wallet with the most trades: what the rule watches when the leaderboard has no whale yet (a small world). */
export async function busiestWallet(service: Service): Promise<string | undefined> {
  const row = await service.store.db
    .selectFrom("wallet_stats")
    .select("wallet")
    .orderBy("total_trades", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.wallet;
}

/** The demo's alert lines of "Open:": curl to add a rule on `whale`, to add a chat destination, and the log. */
export function alertsShowcase(url: string, alerts: DemoAlerts, whale: string | undefined): string[] {
  const header = `-H "X-API-Key: ${alerts.key}" -H "content-type: application/json"`;
  const wallet = whale ?? "0x<a wallet>";
  const rule = JSON.stringify({
    name: "a whale trades",
    kind: "wallet_trade",
    filters: { wallets: [wallet] },
    destination_ids: [alerts.destinationId ?? 1],
  });
  const telegram = JSON.stringify({
    kind: "telegram",
    name: "phone",
    bot_token: "1:demo-token-demo-token-demo",
    chat_id: "42",
  });
  return [
    `alerts (Premium key for this run: ${alerts.key}); add a rule that sends each trade of ${wallet} to the demo's webhook receiver:`,
    `  curl -X POST ${header} -d '${rule}' ${url}/api/v2/alerts/rules`,
    `  a Telegram destination (the demo's stand-in of the Bot API): curl -X POST ${header} -d '${telegram}' ${url}/api/v2/alerts/destinations`,
    `  the delivery log: curl -H "X-API-Key: ${alerts.key}" ${url}/api/v2/alerts/deliveries`,
    `  alerts the stand-ins receive print here as "alert received ..." lines; manage them in the dashboard: ${url}/#/alerts`,
  ];
}
