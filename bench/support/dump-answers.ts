/**
 * Every GET operation's answer over a bench world's store, each hashed, for checking that a migration changes no
 * answer on a world of the bench's size (issue 49; `test/compact-fills-migration.test.ts` checks it on a small world
 * in every CI run). Run it with the code before the migration on one copy of the world's file, migrate another copy
 * with the code after (`node bin/pelagic.js migrate --data-dir <copy>`), run it there, and compare the two outputs:
 *   node --import tsx bench/support/dump-answers.ts <pelagic.sqlite> <answers.json> [wallets]
 * The operations are asked for the `wallets` busiest wallets (default 10), each with its latest market, at the
 * world's last fill. A first round records what the views count (lookups, sync requests); the second is kept.
 */
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { createKey } from "../../src/accounts/keys.js";
import { buildApp } from "../../src/api/app.js";
import { loadConfig } from "../../src/config/index.js";
import { ManualClock } from "../../src/platform/clock.js";
import { createLogger } from "../../src/platform/logger.js";
import { openStore } from "../../src/store/database.js";
import { FILL_ENDS } from "../../src/store/fills.js";
import { queryRows } from "../../src/store/raw-sql.js";
import { operationSubjects, operationUrls } from "../../test/support/api/operations.js";
import { memoryPlatform } from "../../test/support/backends.js";

/** Answers that move by themselves between two rounds: the AI report's generation, the key's own usage, alert state. */
const UNSTABLE = [/\/ai-analysis$/, /\/key\/verify$/, /^\/api\/v2\/alerts\//];
const ELAPSED = /"_elapsed_ms":\d+(\.\d+)?/g;

const [path, out, wallets = "10"] = process.argv.slice(2);
if (!path || !out) throw new Error("usage: dump-answers.ts <pelagic.sqlite> <answers.json> [wallets]");
const store = await openStore({ kind: "sqlite", sqlitePath: path });
const [last] = await queryRows<{ ts: number }>(store.db, store.kind, `select ${FILL_ENDS.latestTs} as ts`);
const now = Number(last!.ts) + 60;
const clock = new ManualClock();
clock.set(now * 1000);
const config = loadConfig({
  LOG_LEVEL: "silent",
  RATE_FREE_PER_MINUTE: "100000000",
  RATE_PREMIUM_PER_MINUTE: "100000000",
});
const { platform, dispose } = await memoryPlatform.open(clock);
const { key } = await createKey(store.db, { account: "answers", plan: "premium", now });
const busiest = await store.db
  .selectFrom("wallet_stats")
  .select("wallet")
  .orderBy("total_trades", "desc")
  .orderBy("wallet")
  .limit(Number(wallets))
  .execute();

const answers: Record<string, string> = {};
const app = await buildApp(
  { config, store, platform, expectedSources: [], startedAt: clock.now() },
  createLogger("silent"),
);
await app.ready();
const started = performance.now();
for (const round of [1, 2])
  for (const { wallet } of busiest) {
    const subjects = { ...(await operationSubjects(store, now)), wallet };
    for (const { template, url } of await operationUrls(app, subjects)) {
      if (UNSTABLE.some((unstable) => unstable.test(template))) continue;
      const r = await app.inject({ url, headers: { "x-api-key": key } });
      if (round === 2)
        answers[url] = `${r.statusCode} ${createHash("sha256")
          .update(`${r.headers["content-type"]} ${r.body.replace(ELAPSED, "")}`)
          .digest("hex")}`;
    }
  }
await app.close();
await dispose();
await store.close();
writeFileSync(out, `${JSON.stringify(answers, null, 1)}\n`);
const ok = Object.values(answers).filter((a) => a.startsWith("200 ")).length;
console.log(
  `${Object.keys(answers).length} answers (${ok} of them 200) in ${((performance.now() - started) / 1000).toFixed(1)} s -> ${out}`,
);
