/**
 * The kernel's page cache emptied (`sync`, then `echo 3 > /proc/sys/vm/drop_caches`, which needs root), so that a
 * figure taken next reads the store from disk, not from what earlier runs left cached (issue 49: a world larger
 * than the memory's cache answers from disk after a while, and a row's figure depended on what ran before it).
 * Returns whether it was dropped; where it may not be (not root, a container), the bench says so in its header.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";

export function dropPageCache(): boolean {
  try {
    execFileSync("sync");
    writeFileSync("/proc/sys/vm/drop_caches", "3");
    return true;
  } catch {
    return false;
  }
}
