/**
 * Where a webhook may be sent. A registered URL is the caller's, so it could name the service's own network:
 * every address it resolves to must be public (no private, loopback, link-local, metadata, multicast or reserved
 * range, including IPv4 inside IPv6 mapped, NAT64 and 6to4 forms). The check runs at registration and again at
 * every connection, inside the connection's own `lookup`: the address checked is the address connected to, so a
 * DNS answer that changes between the two cannot slip through. Loopback is allowed only with
 * ALERTS_ALLOW_LOOPBACK (tests and the demo). A host name is refused in one text whether it does not resolve
 * or resolves to a non-public address, so that a caller cannot learn the service's internal DNS from the refusals
 * (the class of the address is kept on the error for the operator's log).
 */
import { PelagicError } from "../../errors/index.js";
import { lookup as dnsLookup } from "node:dns/promises";
import type { LookupAddress } from "node:dns";
import { isIP } from "node:net";

export type Resolver = (hostname: string) => Promise<readonly LookupAddress[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export class RefusedTarget extends PelagicError {
  constructor(
    message: string,
    /** What was found behind a host name (unresolved, or the address class): for the operator, never the caller. */
    readonly found?: string,
  ) {
    super("WEBHOOK_TARGET_REFUSED", message);
  }
}

type Category = "loopback" | "private" | "link-local" | "metadata" | "multicast" | "reserved";

interface Rule {
  readonly prefix: readonly number[];
  readonly bits: number;
  readonly category: Category;
}

const v4 = (cidr: string, category: Category): Rule => {
  const [address, bits] = cidr.split("/");
  return { prefix: address!.split(".").map(Number), bits: Number(bits), category };
};
const v6 = (cidr: string, category: Category): Rule => {
  const [address, bits] = cidr.split("/");
  return { prefix: ipv6Bytes(address!)!, bits: Number(bits), category };
};

/** Metadata first: 169.254.169.254 is also link-local, and the more precise name helps whoever reads the refusal. */
const IPV4_RULES: readonly Rule[] = [
  v4("169.254.169.254/32", "metadata"),
  v4("100.100.100.200/32", "metadata"),
  v4("0.0.0.0/8", "reserved"),
  v4("10.0.0.0/8", "private"),
  v4("100.64.0.0/10", "private"),
  v4("127.0.0.0/8", "loopback"),
  v4("169.254.0.0/16", "link-local"),
  v4("172.16.0.0/12", "private"),
  v4("192.0.0.0/24", "reserved"),
  v4("192.0.2.0/24", "reserved"),
  v4("192.88.99.0/24", "reserved"),
  v4("192.168.0.0/16", "private"),
  v4("198.18.0.0/15", "reserved"),
  v4("198.51.100.0/24", "reserved"),
  v4("203.0.113.0/24", "reserved"),
  v4("224.0.0.0/4", "multicast"),
  v4("240.0.0.0/4", "reserved"),
];

/**
 * After the forms that embed an IPv4 address (embeddedIpv4). The IPv4-compatible (::/96) and IPv4-translated
 * (::ffff:0:0/96) forms, Teredo and the other IETF assignments (2001::/23), and local-use NAT64 (64:ff9b:1::/48)
 * reach an IPv4 host through a translator where one runs: all refused.
 */
const IPV6_RULES: readonly Rule[] = [
  v6("fd00:ec2::254/128", "metadata"),
  v6("::/128", "reserved"),
  v6("::1/128", "loopback"),
  v6("::/96", "reserved"),
  v6("::ffff:0:0:0/96", "reserved"),
  v6("64:ff9b:1::/48", "private"),
  v6("100::/64", "reserved"),
  v6("2001::/23", "reserved"),
  v6("2001:db8::/32", "reserved"),
  v6("3fff::/20", "reserved"),
  v6("5f00::/16", "reserved"),
  v6("fc00::/7", "private"),
  v6("fe80::/10", "link-local"),
  v6("fec0::/10", "private"),
  v6("ff00::/8", "multicast"),
];

/** The 16 bytes of an IPv6 address (with an optional dotted IPv4 tail), or null when it is not one. */
export function ipv6Bytes(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  let text = address.split("%")[0]!;
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    tail.push(...dotted[1]!.split(".").map(Number));
    text = text.slice(0, -dotted[1]!.length) + "0:0";
  }
  const [head, rest] = text.split("::");
  const groups = (part: string | undefined) => (part ? part.split(":").filter((g) => g !== "") : []);
  const left = groups(head);
  const right = groups(rest);
  const missing = 8 - left.length - right.length;
  const all = rest === undefined ? left : [...left, ...Array<string>(missing).fill("0"), ...right];
  const bytes = all.flatMap((g) => {
    const value = parseInt(g, 16);
    return [value >> 8, value & 0xff];
  });
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

function matches(bytes: readonly number[], rule: Rule): boolean {
  for (let bit = 0; bit < rule.bits; bit += 8) {
    const take = Math.min(8, rule.bits - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    if ((bytes[bit / 8]! & mask) !== (rule.prefix[bit / 8]! & mask)) return false;
  }
  return true;
}

/** The IPv4 address an IPv6 one carries (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16), if any. */
function embeddedIpv4(bytes: readonly number[]): number[] | null {
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return bytes.slice(12, 16);
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12))
    return bytes.slice(12, 16);
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return bytes.slice(2, 6);
  return null;
}

/** What kind of non-public address this is, or null for a public one (or for loopback when allowed). */
export function addressProblem(address: string, allowLoopback: boolean): Category | null {
  let category: Category | null = null;
  if (isIP(address) === 4) {
    const bytes = address.split(".").map(Number);
    category = IPV4_RULES.find((rule) => matches(bytes, rule))?.category ?? null;
  } else {
    const bytes = ipv6Bytes(address);
    if (!bytes) return "reserved";
    const inner = embeddedIpv4(bytes);
    if (inner) return addressProblem(inner.join("."), allowLoopback);
    category = IPV6_RULES.find((rule) => matches(bytes, rule))?.category ?? null;
  }
  return category === "loopback" && allowLoopback ? null : category;
}

/** A webhook URL's own form: http or https, a host, no credentials, no fragment. */
export function parseWebhookUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new RefusedTarget("not a URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new RefusedTarget("must be an http or https URL");
  if (url.username || url.password) throw new RefusedTarget("must not carry credentials");
  if (url.hash) throw new RefusedTarget("must not carry a fragment");
  if (!url.hostname) throw new RefusedTarget("must name a host");
  return url;
}

export interface TargetPolicy {
  readonly resolve: Resolver;
  readonly allowLoopback: boolean;
}

/** The URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, "");
}

/**
 * Resolves a host and checks every address; the first one is the address to connect to. An address literal is
 * refused with its class (the caller wrote it); a name with one text, whatever was behind it.
 */
export async function checkedAddress(host: string, policy: TargetPolicy): Promise<LookupAddress> {
  const literal = isIP(host);
  if (literal) {
    const problem = addressProblem(host, policy.allowLoopback);
    if (problem) throw new RefusedTarget(`is a ${problem} address`, problem);
    return { address: host, family: literal };
  }
  const refused = (found: string) => new RefusedTarget(`${host} does not resolve to public addresses only`, found);
  const addresses = await policy.resolve(host).catch(() => []);
  if (addresses.length === 0) throw refused("unresolved");
  for (const { address } of addresses) {
    const problem = addressProblem(address, policy.allowLoopback);
    if (problem) throw refused(problem);
  }
  return addresses[0]!;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request: resolves and checks, then hands the connection the checked address and nothing
 * else. Node calls it only for host names; an IP literal is checked before the request (checkedAddress).
 */
export function pinnedLookup(policy: TargetPolicy, onPinned?: (address: string) => void) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    checkedAddress(hostname, policy).then(
      (picked) => {
        onPinned?.(picked.address);
        if (options.all) callback(null, [picked]);
        else callback(null, picked.address, picked.family);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, ""),
    );
  };
}
