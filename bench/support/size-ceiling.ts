/**
 * The ceiling at an answer's size: the bare route's throughput measured at a few body sizes, read between them on
 * a log scale of the size. An answer of 26 KB cannot reach the throughput of a 120-byte one (sending it costs both
 * the service and the load generator, on the same cores), so each row is also compared with a bare route sending
 * as many bytes.
 */
export interface SizedCeiling {
  readonly bytes: number;
  readonly rps: number;
}

/** The ceiling's throughput at `bytes`, from the measured sizes (sorted or not); the nearest end outside them. */
export function ceilingAt(points: readonly SizedCeiling[], bytes: number): number {
  const sorted = [...points].sort((a, b) => a.bytes - b.bytes);
  if (sorted.length === 0) throw new Error("no ceiling measured");
  if (bytes <= sorted[0]!.bytes) return sorted[0]!.rps;
  for (let i = 1; i < sorted.length; i++) {
    const hi = sorted[i]!;
    if (bytes <= hi.bytes) {
      const lo = sorted[i - 1]!;
      const share = Math.log(bytes / lo.bytes) / Math.log(hi.bytes / lo.bytes);
      return lo.rps + share * (hi.rps - lo.rps);
    }
  }
  return sorted.at(-1)!.rps;
}
