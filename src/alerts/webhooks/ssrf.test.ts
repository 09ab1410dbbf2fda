import { describe, expect, it } from "vitest";
import { addressProblem, checkedAddress, hostOf, parseWebhookUrl, type RefusedTarget, type Resolver } from "./ssrf.js";

const dns =
  (table: Record<string, string[]>): Resolver =>
  async (host) =>
    (table[host] ?? []).map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
const policy = (resolve: Resolver = dns({}), allowLoopback = false) => ({ resolve, allowLoopback });
const refusal = async (url: string, resolve?: Resolver, allowLoopback = false) =>
  checkedAddress(hostOf(parseWebhookUrl(url)), policy(resolve, allowLoopback)).then(
    () => null,
    (error: Error) => error.message,
  );

describe("webhook targets", () => {
  it("classifies private, loopback, link-local, metadata and reserved addresses, in every IPv6 disguise", () => {
    const cases: Array<[string, string | null]> = [
      ["93.184.216.34", null],
      ["2606:4700:4700::1111", null],
      ["10.1.2.3", "private"],
      ["172.16.0.1", "private"],
      ["172.32.0.1", null],
      ["192.168.1.1", "private"],
      ["100.64.0.1", "private"],
      ["127.0.0.1", "loopback"],
      ["127.255.0.9", "loopback"],
      ["::1", "loopback"],
      ["169.254.169.254", "metadata"],
      ["100.100.100.200", "metadata"],
      ["fd00:ec2::254", "metadata"],
      ["169.254.10.10", "link-local"],
      ["fe80::1", "link-local"],
      ["fc00::1", "private"],
      ["0.0.0.0", "reserved"],
      ["::", "reserved"],
      ["224.0.0.1", "multicast"],
      ["ff02::1", "multicast"],
      ["::ffff:127.0.0.1", "loopback"],
      ["::ffff:169.254.169.254", "metadata"],
      ["64:ff9b::a00:1", "private"],
      ["2002:a9fe:a9fe::1", "metadata"],
      // Issue 45's forms: IPv4-compatible, IPv4-translated, local-use NAT64, Teredo, site-local, 6to4 relay anycast.
      ["::127.0.0.1", "reserved"],
      ["::7f00:1", "reserved"],
      ["::ffff:0:127.0.0.1", "reserved"],
      ["::ffff:0:7f00:1", "reserved"],
      ["64:ff9b:1::7f00:1", "private"],
      ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "reserved"],
      ["2001::1", "reserved"],
      ["fec0::1", "private"],
      ["feff::1", "private"],
      ["192.88.99.1", "reserved"],
      ["2001:4860:4860::8888", null],
      ["64:ff9b::5db8:d822", null],
    ];
    expect(cases.map(([address]) => [address, addressProblem(address, false)])).toEqual(cases);
    expect(addressProblem("127.0.0.1", true)).toBeNull();
    expect(addressProblem("10.0.0.1", true)).toBe("private");
  });

  it("refuses private, loopback, link-local and metadata URLs, written as literals in any form", async () => {
    expect(await refusal("http://10.0.0.1/hook")).toBe("is a private address");
    expect(await refusal("http://127.0.0.1:8080/")).toBe("is a loopback address");
    expect(await refusal("http://2130706433/")).toBe("is a loopback address");
    expect(await refusal("http://0x7f.1/")).toBe("is a loopback address");
    expect(await refusal("http://[::1]/")).toBe("is a loopback address");
    expect(await refusal("http://[::ffff:a9fe:a9fe]/")).toBe("is a metadata address");
    expect(await refusal("http://169.254.169.254/latest/meta-data/")).toBe("is a metadata address");
    expect(await refusal("http://[fe80::1]/")).toBe("is a link-local address");
    expect(await refusal("http://[::127.0.0.1]/")).toBe("is a reserved address");
    expect(await refusal("http://[::ffff:0:127.0.0.1]/")).toBe("is a reserved address");
    expect(await refusal("http://[64:ff9b:1::7f00:1]/")).toBe("is a private address");
    expect(await refusal("http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/")).toBe("is a reserved address");
    expect(await refusal("http://[fec0::1]/")).toBe("is a private address");
    expect(await refusal("http://192.88.99.1/")).toBe("is a reserved address");
    expect(await refusal("https://93.184.216.34/hook")).toBeNull();
  });

  it("refuses a name that resolves to such an address, even among public ones, in one text whatever it found", async () => {
    const resolve = dns({
      "a.example": ["169.254.169.254"],
      "b.example": ["192.168.4.2"],
      "c.example": ["93.184.216.34", "10.9.9.9"],
      "d.example": ["127.0.0.1"],
      "e.example": ["::ffff:0:127.0.0.1"],
      "public.example": ["93.184.216.34", "2606:4700:4700::1111"],
    });
    // Not resolving, and resolving to a metadata, private, mixed, loopback or translated address: one text, so
    // that the refusals tell a caller nothing of the service's DNS (what was found is kept for the log).
    const found: Array<string | undefined> = [];
    for (const name of ["a", "b", "c", "d", "e", "nowhere"]) {
      const host = `${name}.example`;
      expect(await refusal(`https://${host}/hook`, resolve)).toBe(`${host} does not resolve to public addresses only`);
      found.push(
        await checkedAddress(host, policy(resolve)).then(
          () => undefined,
          (error: RefusedTarget) => error.found,
        ),
      );
    }
    expect(found).toEqual(["metadata", "private", "private", "loopback", "reserved", "unresolved"]);
    expect(await refusal("https://public.example/", resolve)).toBeNull();
  });

  it("allows loopback only when told, and takes only http(s) URLs without credentials or fragments", async () => {
    expect(await refusal("http://127.0.0.1:9/hook", undefined, true)).toBeNull();
    expect(await refusal("http://10.0.0.1/hook", undefined, true)).toBe("is a private address");
    for (const [url, why] of [
      ["ftp://example.com/", "must be an http or https URL"],
      ["http://user:pw@example.com/", "must not carry credentials"],
      ["https://example.com/#x", "must not carry a fragment"],
      ["not a url", "not a URL"],
      ["file:///etc/passwd", "must be an http or https URL"],
    ]) {
      expect(() => parseWebhookUrl(url!), url).toThrow(why);
    }
  });
});
