/**
 * CPU time of processes, read from /proc (Linux only): a service's, or a whole mode's (its API processes, the
 * PostgreSQL backends and the Redis server they call) over a span of requests.
 */
import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on every Linux Node runs on). */
const TICKS_PER_SECOND = 100;

/** The process's CPU time so far (user + system), microseconds; 0 once it has exited. */
export function cpuMicros(pid: number): number {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return 0;
  }
  // Fields after the command name (which may hold spaces, inside parentheses): utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS_PER_SECOND;
}

/** Every running process whose command name is `name` (`postgres`: the server and each connection's backend). */
export function pidsNamed(name: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() === name) pids.push(Number(entry));
    } catch {
      /* exited meanwhile */
    }
  }
  return pids;
}

/** A group of processes whose CPU time is summed; `pids` is asked again at each reading (backends come and go). */
export interface ProcessGroup {
  readonly label: string;
  readonly pids: () => readonly number[];
}

/**
 * CPU time each group spent while `work` ran, microseconds. A process started during `work` counts whole (it
 * started inside the span); one that exited during it loses what it spent (none of the groups measured does).
 */
export async function cpuDuring(groups: readonly ProcessGroup[], work: () => Promise<void>): Promise<number[]> {
  const read = () => groups.map((g) => new Map(g.pids().map((pid) => [pid, cpuMicros(pid)])));
  const before = read();
  await work();
  const after = read();
  return after.map((byPid, i) => {
    let spent = 0;
    for (const [pid, micros] of byPid) spent += micros - (before[i]!.get(pid) ?? 0);
    return spent;
  });
}
