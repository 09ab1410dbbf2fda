/**
 * The funding graph's rules (issue 52; docs/METRICS.md, "Funding"): pure functions over aggregated transfers.
 *
 * An edge says `from` sent collateral to `to`. A wallet's funders are the senders of its incoming transfers, their
 * senders, and so on, up to `hops` transfers back; a hub (an exchange, the bridge, or a busy account: `busyFunders`)
 * ends a path and is nobody's shared funder. Two wallets are in one funding cluster when they share a funder that is
 * not a hub within the hop limit, and clusters are closed under that (a wallet sharing one funder with a second and
 * another with a third puts the three together). A wallet that funded another wallet is that wallet's funder too.
 */

export interface FundingEdge {
  readonly from: string;
  readonly to: string;
  /** Collateral moved, USD, over every kept transfer from `from` to `to`. */
  readonly usd: number;
  readonly transfers: number;
  /** The first transfer's time, unix seconds. */
  readonly firstTs: number;
}

/** Accounts that funded at least `fanout` distinct addresses among the edges: hubs the table does not know. */
export function busyFunders(edges: Iterable<FundingEdge>, fanout: number): Set<string> {
  const recipients = new Map<string, number>();
  for (const e of edges) recipients.set(e.from, (recipients.get(e.from) ?? 0) + 1);
  return new Set([...recipients].filter(([, n]) => n >= fanout).map(([from]) => from));
}

/** Whether an address ends a path: a hub of the table (src/venue/funding-hubs.ts), or an account as busy as one. */
export function hubTest(hubs: ReadonlyMap<string, unknown>, busy: ReadonlySet<string>): (address: string) => boolean {
  return (address) => hubs.has(address) || busy.has(address);
}

/** Edges by recipient. */
export function edgesInto(edges: Iterable<FundingEdge>): Map<string, FundingEdge[]> {
  const into = new Map<string, FundingEdge[]>();
  for (const e of edges) {
    const list = into.get(e.to);
    if (list) list.push(e);
    else into.set(e.to, [e]);
  }
  return into;
}

/** A wallet's funders that are not hubs, each with the fewest transfers between it and the wallet (1 = direct). */
export function sharedFunderCandidates(
  wallet: string,
  into: (address: string) => readonly FundingEdge[],
  isHub: (address: string) => boolean,
  hops: number,
): Map<string, number> {
  const depth = new Map<string, number>();
  let frontier = [wallet];
  for (let d = 1; d <= hops && frontier.length > 0; d++) {
    const next: string[] = [];
    for (const address of frontier)
      for (const { from } of into(address)) {
        if (from === wallet || depth.has(from) || isHub(from)) continue;
        depth.set(from, d);
        next.push(from);
      }
    frontier = next;
  }
  return depth;
}

export interface FundingClusterMember {
  readonly wallet: string;
  /** Transfers from the cluster's funder to the wallet; null when it joined through another shared funder. */
  readonly funderHops: number | null;
}

export interface FundingCluster {
  /**
   * The shared funder most members reach; of those, the one farthest back (the source a chain of hop accounts
   * passes money from), then the lower address.
   */
  readonly funder: string;
  /** By address. */
  readonly members: readonly FundingClusterMember[];
}

/**
 * Wallets grouped by shared non-hub funders within `hops` transfers, clusters of two wallets or more, biggest
 * first (then by funder).
 */
export function fundingClusters(
  wallets: Iterable<string>,
  edges: readonly FundingEdge[],
  isHub: (address: string) => boolean,
  hops: number,
): FundingCluster[] {
  const into = edgesInto(edges);
  const walletSet = new Set(wallets);
  const parent = new Map<string, string>();
  const find = (a: string): string => {
    let root = a;
    while (parent.get(root) !== root) root = parent.get(root)!;
    for (let x = a; x !== root; ) {
      const next = parent.get(x)!;
      parent.set(x, root);
      x = next;
    }
    return root;
  };
  const union = (a: string, b: string) => {
    const [ra, rb] = [find(a), find(b)];
    if (ra < rb) parent.set(rb, ra);
    else if (rb < ra) parent.set(ra, rb);
  };
  for (const w of walletSet) parent.set(w, w);
  /** Per shared funder: its wallets and their hops. */
  const reach = new Map<string, Map<string, number>>();
  for (const w of walletSet) {
    for (const [funder, d] of sharedFunderCandidates(w, (a) => into.get(a) ?? [], isHub, hops)) {
      const reached = reach.get(funder) ?? new Map<string, number>();
      reached.set(w, d);
      reach.set(funder, reached);
    }
  }
  for (const [funder, reached] of reach) {
    const members = [...reached.keys()];
    if (walletSet.has(funder)) members.push(funder);
    for (let i = 1; i < members.length; i++) union(members[0]!, members[i]!);
  }
  const components = new Map<string, string[]>();
  for (const w of walletSet) {
    const root = find(w);
    const list = components.get(root);
    if (list) list.push(w);
    else components.set(root, [w]);
  }
  const named = new Map<string, { funder: string; count: number; total: number }>();
  for (const [funder, reached] of reach) {
    const root = find(reached.keys().next().value!);
    const count = reached.size + (walletSet.has(funder) ? 1 : 0);
    const total = [...reached.values()].reduce((s, d) => s + d, 0);
    const best = named.get(root);
    if (
      !best ||
      count > best.count ||
      (count === best.count && (total > best.total || (total === best.total && funder < best.funder)))
    )
      named.set(root, { funder, count, total });
  }
  const clusters: FundingCluster[] = [];
  for (const [root, members] of components) {
    if (members.length < 2) continue;
    const funder = named.get(root)!.funder;
    const reached = reach.get(funder)!;
    members.sort();
    clusters.push({
      funder,
      members: members.map((wallet) => ({ wallet, funderHops: wallet === funder ? 0 : (reached.get(wallet) ?? null) })),
    });
  }
  return clusters.sort((a, b) => b.members.length - a.members.length || (a.funder < b.funder ? -1 : 1));
}

export type PathEnd = "hub" | "hop_limit" | "unfunded";

export interface FundingPath {
  /** The accounts the wallet's collateral came through, nearest first. */
  readonly addresses: readonly string[];
  /** How the path ends: at a hub, at the hop limit, or at an account nobody funded (as far as was read). */
  readonly ends: PathEnd;
  /** The collateral of the path's first transfer (into the wallet), USD. */
  readonly usd: number;
}

/**
 * A wallet's funding paths, biggest first: from each of its `perNode` biggest funders back through theirs, up to
 * `hops` transfers or a hub, at most `maxPaths` paths.
 */
export function fundingPaths(
  wallet: string,
  into: (address: string) => readonly FundingEdge[],
  isHub: (address: string) => boolean,
  hops: number,
  limits: { perNode: number; maxPaths: number } = { perNode: 3, maxPaths: 20 },
): FundingPath[] {
  const paths: FundingPath[] = [];
  const walk = (at: string, trail: string[], usd: number) => {
    if (paths.length >= limits.maxPaths) return;
    const last = trail.at(-1);
    if (last !== undefined && isHub(last)) return void paths.push({ addresses: trail, ends: "hub", usd });
    if (trail.length >= hops) return void paths.push({ addresses: trail, ends: "hop_limit", usd });
    const funders = [...into(at)]
      .filter((e) => e.from !== wallet && !trail.includes(e.from))
      .sort((a, b) => b.usd - a.usd || (a.from < b.from ? -1 : 1))
      .slice(0, limits.perNode);
    if (funders.length === 0) {
      if (trail.length > 0) paths.push({ addresses: trail, ends: "unfunded", usd });
      return;
    }
    for (const e of funders) walk(e.from, [...trail, e.from], trail.length === 0 ? e.usd : usd);
  };
  walk(wallet, [], 0);
  return paths;
}
