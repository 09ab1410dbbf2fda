/**
 * A PostgreSQL streaming replica of the test server, built for a test and dropped after: a cluster of its own
 * (`pg_createcluster`) on a free port, filled by `pg_basebackup -R` from the primary, so it follows the primary's
 * WAL as a production replica does. Needs root (the cluster's files belong to the postgres user) and the Debian
 * cluster tools; `replicaUnavailable` says why it cannot be built here, if so.
 *
 * The primary must accept replication connections from 127.0.0.1: when its pg_hba.conf has no such rule, one line
 * (`host replication all 127.0.0.1/32 trust`, as trusted as the server's other local rules) is appended and the
 * configuration reloaded; it is left in place, since other tests may be using it.
 */
import { freePort } from "./free-port.js";
import { execFileSync } from "node:child_process";
import { appendFileSync, existsSync } from "node:fs";
import pg from "pg";

export interface Replica {
  readonly port: number;
  /** The URL of `database` on the replica. */
  url(database: string): string;
  /** Stops applying the primary's WAL (it keeps receiving it): reads see the store as it was. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Resolves once the replica has applied everything the primary had written when called. */
  caughtUp(timeoutMs?: number): Promise<void>;
  dispose(): Promise<void>;
}

const VERSION_DIR = "/etc/postgresql";

function run(command: string, args: string[]): string {
  return execFileSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** Why a replica cannot be built on this machine, or null when it can. */
export function replicaUnavailable(primaryUrl: string | undefined): string | null {
  if (!primaryUrl) return "TEST_DATABASE_URL is not set";
  if (process.getuid?.() !== 0) return "building a replica cluster needs root";
  for (const tool of ["pg_createcluster", "pg_dropcluster", "pg_ctlcluster", "pg_basebackup", "runuser"]) {
    try {
      run("which", [tool]);
    } catch {
      return `${tool} is not installed`;
    }
  }
  if (!existsSync(VERSION_DIR)) return `${VERSION_DIR} is missing (not a Debian PostgreSQL)`;
  const host = new URL(primaryUrl).hostname;
  if (host !== "127.0.0.1" && host !== "localhost") return "the primary is not on this machine";
  return null;
}

async function query<T extends pg.QueryResultRow>(connectionString: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

/** Lets 127.0.0.1 open replication connections to the primary, if its rules do not already. */
async function allowReplication(primaryUrl: string): Promise<void> {
  const [rules] = await query<{ n: string }>(
    primaryUrl,
    "select count(*) as n from pg_hba_file_rules where 'replication' = any(database) and (address is null or address = '127.0.0.1')",
  );
  if (Number(rules?.n) > 0) return;
  const [file] = await query<{ hba_file: string }>(primaryUrl, "show hba_file");
  appendFileSync(
    file?.hba_file as string,
    "\n# added by Pelagic's replica test (test/support/replica.ts)\nhost replication all 127.0.0.1/32 trust\n",
  );
  await query(primaryUrl, "select pg_reload_conf()");
}

export async function buildReplica(primaryUrl: string): Promise<Replica> {
  await allowReplication(primaryUrl);
  const [version] = await query<{ server_version_num: string }>(primaryUrl, "show server_version_num");
  const major = String(Math.floor(Number(version?.server_version_num) / 10_000));
  const primary = new URL(primaryUrl);
  const port = await freePort();
  const name = `pelagic_replica_${port}`;
  const dataDir = `/var/lib/postgresql/${major}/${name}`;
  run("pg_createcluster", [
    major,
    name,
    "-p",
    String(port),
    "--start-conf",
    "manual",
    "--",
    "--auth-local=trust",
    "--auth-host=trust",
  ]);
  const drop = () => {
    try {
      run("pg_dropcluster", [major, name, "--stop"]);
    } catch {
      /* already gone */
    }
  };
  try {
    run("runuser", ["-u", "postgres", "--", "find", dataDir, "-mindepth", "1", "-delete"]);
    run("runuser", [
      "-u",
      "postgres",
      "--",
      "pg_basebackup",
      "-h",
      primary.hostname,
      "-p",
      primary.port || "5432",
      "-U",
      primary.username || "postgres",
      "-D",
      dataDir,
      "-R",
      "-X",
      "stream",
      "-c",
      "fast",
    ]);
    run("pg_ctlcluster", [major, name, "start"]);
  } catch (error) {
    drop();
    throw error;
  }
  const url = (database: string) => `postgres://${primary.username || "postgres"}@127.0.0.1:${port}/${database}`;
  for (const end = Date.now() + 60_000; ; ) {
    try {
      await query(url("postgres"), "select 1");
      break;
    } catch (error) {
      if (Date.now() > end) {
        drop();
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return {
    port,
    url,
    pauseReplay: async () => void (await query(url("postgres"), "select pg_wal_replay_pause()")),
    resumeReplay: async () => void (await query(url("postgres"), "select pg_wal_replay_resume()")),
    async caughtUp(timeoutMs = 30_000) {
      const [target] = await query<{ lsn: string }>(primaryUrl, "select pg_current_wal_lsn()::text as lsn");
      for (const end = Date.now() + timeoutMs; ; ) {
        const [state] = await query<{ behind: boolean }>(
          url("postgres"),
          `select pg_last_wal_replay_lsn() < '${target?.lsn}'::pg_lsn as behind`,
        );
        if (state && !state.behind) return;
        if (Date.now() > end) throw new Error("the replica did not catch up");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async dispose() {
      drop();
    },
  };
}
