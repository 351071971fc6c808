import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Resolve } from "../src/deliveries/SsrfGuard.ts"
import {
  forbiddenReason,
  isForbiddenAddress,
  SsrfRejected,
  systemResolve,
  TargetUnresolved,
  vet
} from "../src/deliveries/SsrfGuard.ts"

/** A resolver answering from a table; unknown names fail like ENOTFOUND. No real DNS in these tests. */
const dns =
  (table: Record<string, ReadonlyArray<string>>): Resolve =>
  (hostname) => {
    const addresses = table[hostname]
    return addresses === undefined
      ? Effect.fail(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }))
      : Effect.succeed(
          addresses.map((address) => ({ address, family: address.includes(":") ? (6 as const) : (4 as const) }))
        )
  }

const resolve = dns({
  "public.example.test": ["93.184.216.34"],
  "public6.example.test": ["2606:2800:220:1:248:1893:25c8:1946", "93.184.216.34"],
  "private.example.test": ["10.0.0.5"],
  "rebind.example.test": ["127.0.0.1"],
  "mixed.example.test": ["93.184.216.34", "192.168.1.10"],
  "metadata.example.test": ["169.254.169.254"],
  "mapped.example.test": ["::ffff:127.0.0.1"],
  "ula.example.test": ["fd12:3456::1"],
  "empty.example.test": [],
  "bogus.example.test": ["not-an-ip"]
})

const rejectedMessage = (url: string, allowPrivate = false) =>
  vet(url, { allowPrivate, resolve }).pipe(
    Effect.flip,
    Effect.map((e) => {
      expect(e).toBeInstanceOf(SsrfRejected)
      expect(e._tag).toBe("SsrfRejected")
      return e.message
    })
  )

describe("SsrfGuard.isForbiddenAddress", () => {
  it.each<[string, string]>([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["10.0.0.1", "private"],
    ["10.255.255.255", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.0.1", "private"],
    ["169.254.169.254", "link-local"],
    ["169.254.0.1", "link-local"],
    ["100.64.0.1", "shared (CGNAT)"],
    ["100.127.255.255", "shared (CGNAT)"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["240.0.0.1", "reserved"],
    ["192.0.0.8", "reserved (IETF protocol assignments)"],
    ["192.0.2.1", "documentation"],
    ["198.51.100.7", "documentation"],
    ["203.0.113.9", "documentation"],
    ["198.18.0.1", "benchmarking"],
    ["198.19.255.255", "benchmarking"],
    ["::1", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "link-local"],
    ["febf:ffff::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["fec0::1", "site-local"],
    ["fc00::1", "unique-local"],
    ["fd12:3456:789a::1", "unique-local"],
    ["ff02::1", "multicast"],
    ["ff0e::1", "multicast"],
    ["2001:db8::1", "documentation"],
    ["2001:2::1", "benchmarking"],
    ["100::1", "discard-only"],
    ["::ffff:127.0.0.1", "IPv4-mapped loopback (127.0.0.1)"],
    ["::ffff:7f00:1", "IPv4-mapped loopback (127.0.0.1)"],
    ["::FFFF:A9FE:A9FE", "IPv4-mapped link-local (169.254.169.254)"],
    ["0:0:0:0:0:ffff:10.1.2.3", "IPv4-mapped private (10.1.2.3)"],
    ["::127.0.0.1", "IPv4-compatible loopback (127.0.0.1)"],
    ["::7f00:1", "IPv4-compatible loopback (127.0.0.1)"],
    ["::1:2:3", "reserved"],
    ["64:ff9b::127.0.0.1", "NAT64 loopback (127.0.0.1)"],
    ["64:ff9b::a00:1", "NAT64 private (10.0.0.1)"],
    ["64:ff9b:1::1", "local-use NAT64"],
    ["2002:7f00:1::", "6to4 loopback (127.0.0.1)"],
    ["2002:c0a8:101::1", "6to4 private (192.168.1.1)"],
    ["2001:0:7f00:1::", "Teredo server loopback (127.0.0.1)"],
    ["2001:0:4136:e378:8000:63bf:f5ff:fffe", "Teredo client private (10.0.0.1)"],
    ["4000::1", "reserved"],
    ["localhost", "not an IP address"],
    ["127.1", "not an IP address"],
    ["", "not an IP address"]
  ])("%s is forbidden: %s", (ip, reason) => {
    expect(isForbiddenAddress(ip)).toBe(true)
    expect(forbiddenReason(ip)).toBe(reason)
  })

  it.each([
    "93.184.216.34",
    "8.8.8.8",
    "1.1.1.1",
    "9.255.255.255",
    "11.0.0.0",
    "172.15.255.255",
    "172.32.0.0",
    "192.167.255.255",
    "192.169.0.0",
    "100.63.255.255",
    "100.128.0.0",
    "169.253.255.255",
    "198.17.255.255",
    "198.20.0.0",
    "223.255.255.255",
    "2606:2800:220:1:248:1893:25c8:1946",
    "2001:4860:4860::8888",
    "::ffff:93.184.216.34",
    "64:ff9b::5db8:d822",
    "2002:5db8:d822::1",
    "2a00:1450:4001:80b::200e"
  ])("%s is allowed", (ip) => {
    expect(isForbiddenAddress(ip)).toBe(false)
    expect(forbiddenReason(ip)).toBeUndefined()
  })
})

describe("SsrfGuard.vet", () => {
  it("the WHATWG URL parser normalises decimal, octal, hex and short IPv4 spellings", () => {
    for (const host of ["2130706433", "0177.0.0.1", "0x7f.0.0.1", "0x7f000001", "127.1", "0177.1", "127.0.0.1."]) {
      expect(new URL(`http://${host}/`).hostname).toBe("127.0.0.1")
    }
    expect(new URL("http://0/").hostname).toBe("0.0.0.0")
    expect(new URL("http://[::ffff:127.0.0.1]/").hostname).toBe("[::ffff:7f00:1]")
    expect(URL.parse("http://999.1.1.1/")).toBeNull()
  })

  it.effect.each<[string, string]>([
    ["http://127.0.0.1/hook", "targetUrl is a loopback address (127.0.0.1)"],
    ["http://127.0.0.1:8080/hook", "targetUrl is a loopback address (127.0.0.1)"],
    ["http://localhost/hook", "targetUrl host localhost is a loopback name"],
    ["http://LOCALHOST.:3000/", "targetUrl host localhost. is a loopback name"],
    ["http://api.localhost/", "targetUrl host api.localhost is a loopback name"],
    ["http://0.0.0.0/", "targetUrl is an unspecified address (0.0.0.0)"],
    ["http://0/", "targetUrl is an unspecified address (0.0.0.0)"],
    ["http://[::1]/", "targetUrl is a loopback address (::1)"],
    ["http://[::]/", "targetUrl is an unspecified address (::)"],
    ["http://[::ffff:127.0.0.1]/", "targetUrl is an IPv4-mapped loopback (127.0.0.1) address (::ffff:7f00:1)"],
    ["http://[::ffff:7f00:1]/", "targetUrl is an IPv4-mapped loopback (127.0.0.1) address (::ffff:7f00:1)"],
    [
      "http://[::ffff:169.254.169.254]/",
      "targetUrl is an IPv4-mapped link-local (169.254.169.254) address (::ffff:a9fe:a9fe)"
    ],
    ["http://10.0.0.5/", "targetUrl is a private address (10.0.0.5)"],
    ["http://10.255.0.1/", "targetUrl is a private address (10.255.0.1)"],
    ["http://172.16.0.1/", "targetUrl is a private address (172.16.0.1)"],
    ["http://172.31.255.254/", "targetUrl is a private address (172.31.255.254)"],
    ["http://192.168.1.1/", "targetUrl is a private address (192.168.1.1)"],
    ["http://100.64.0.1/", "targetUrl is a shared (CGNAT) address (100.64.0.1)"],
    ["http://100.127.1.1/", "targetUrl is a shared (CGNAT) address (100.127.1.1)"],
    ["http://169.254.169.254/latest/meta-data/", "targetUrl is a link-local address (169.254.169.254)"],
    ["http://[fc00::1]/", "targetUrl is a unique-local address (fc00::1)"],
    ["http://[fd00:ec2::254]/", "targetUrl is a unique-local address (fd00:ec2::254)"],
    ["http://[fe80::1]/", "targetUrl is a link-local address (fe80::1)"],
    ["http://2130706433/", "targetUrl is a loopback address (127.0.0.1)"],
    ["http://0177.0.0.1/", "targetUrl is a loopback address (127.0.0.1)"],
    ["http://0x7f.0.0.1/", "targetUrl is a loopback address (127.0.0.1)"],
    ["http://0x7f000001/", "targetUrl is a loopback address (127.0.0.1)"],
    ["http://127.1/", "targetUrl is a loopback address (127.0.0.1)"],
    ["http://0xa9fea9fe/", "targetUrl is a link-local address (169.254.169.254)"],
    ["http://private.example.test/hook", "targetUrl resolves to a private address (10.0.0.5)"],
    ["https://rebind.example.test/hook", "targetUrl resolves to a loopback address (127.0.0.1)"],
    ["http://mixed.example.test/", "targetUrl resolves to a private address (192.168.1.10)"],
    ["http://metadata.example.test/", "targetUrl resolves to a link-local address (169.254.169.254)"],
    [
      "http://mapped.example.test/",
      "targetUrl resolves to an IPv4-mapped loopback (127.0.0.1) address (::ffff:127.0.0.1)"
    ],
    ["http://ula.example.test/", "targetUrl resolves to a unique-local address (fd12:3456::1)"],
    ["http://bogus.example.test/", "targetUrl host bogus.example.test resolves to an invalid address (not-an-ip)"],
    ["ftp://public.example.test/", "targetUrl must use http or https (got ftp)"],
    ["file:///etc/passwd", "targetUrl must use http or https (got file)"],
    ["gopher://public.example.test/", "targetUrl must use http or https (got gopher)"],
    ["javascript:alert(1)", "targetUrl must use http or https (got javascript)"],
    ["http://user:secret@public.example.test/", "targetUrl must not contain credentials"],
    ["http://user@public.example.test/", "targetUrl must not contain credentials"],
    ["not a url", "targetUrl is not a valid URL"],
    ["/relative/path", "targetUrl is not a valid URL"],
    ["http://999.0.0.1/", "targetUrl is not a valid URL"]
  ])("rejects %s", ([url, message]) =>
    Effect.gen(function* () {
      expect(yield* rejectedMessage(url)).toBe(message)
    })
  )

  // Not a verdict on the target: a delivery retries these on its schedule.
  it.effect.each<[string, string]>([
    ["http://empty.example.test/", "targetUrl host empty.example.test resolves to no address"],
    ["http://unknown.example.test/", "targetUrl host unknown.example.test could not be resolved (ENOTFOUND)"]
  ])("answers %s as unresolved, not rejected", ([url, message]) =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(vet(url, { allowPrivate: false, resolve }))
      expect(error).toBeInstanceOf(TargetUnresolved)
      expect(error.message).toBe(message)
    })
  )

  it.effect.each<[string, string, 4 | 6]>([
    ["https://public.example.test/hooks?x=1", "93.184.216.34", 4],
    ["https://public6.example.test/", "2606:2800:220:1:248:1893:25c8:1946", 6],
    ["http://93.184.216.34:8080/", "93.184.216.34", 4],
    ["http://[2606:2800:220:1:248:1893:25c8:1946]/", "2606:2800:220:1:248:1893:25c8:1946", 6],
    ["HTTPS://PUBLIC.EXAMPLE.TEST/Path", "93.184.216.34", 4]
  ])("allows %s → %s", ([url, address, family]) =>
    Effect.gen(function* () {
      const target = yield* vet(url, { allowPrivate: false, resolve })
      expect(target.address).toBe(address)
      expect(target.family).toBe(family)
      expect(target.url.href).toBe(new URL(url).href)
    })
  )

  it.effect(
    "allowPrivate=true lets loopback, private and localhost through, but not other schemes or credentials",
    () =>
      Effect.gen(function* () {
        const literal = yield* vet("http://127.0.0.1:3000/hook", { allowPrivate: true, resolve })
        expect(literal).toMatchObject({ address: "127.0.0.1", family: 4 })
        expect((yield* vet("http://[::1]:3000/", { allowPrivate: true, resolve })).address).toBe("::1")
        expect((yield* vet("http://2130706433/", { allowPrivate: true, resolve })).address).toBe("127.0.0.1")
        expect((yield* vet("http://rebind.example.test/", { allowPrivate: true, resolve })).address).toBe("127.0.0.1")
        const local = yield* vet("http://localhost:3000/", {
          allowPrivate: true,
          resolve: dns({ localhost: ["::1", "127.0.0.1"] })
        })
        expect(local).toMatchObject({ address: "::1", family: 6 })
        expect(yield* rejectedMessage("ftp://127.0.0.1/", true)).toBe("targetUrl must use http or https (got ftp)")
        expect(yield* rejectedMessage("http://u:p@127.0.0.1/", true)).toBe("targetUrl must not contain credentials")
      })
  )

  it.effect("resolves DNS names only, not IP literals, and passes the bare host name", () =>
    Effect.gen(function* () {
      const asked: Array<string> = []
      const spy: Resolve = (hostname) => {
        asked.push(hostname)
        return resolve(hostname)
      }
      yield* vet("http://93.184.216.34/", { allowPrivate: false, resolve: spy })
      yield* vet("http://[2606:2800:220:1:248:1893:25c8:1946]/", { allowPrivate: false, resolve: spy })
      yield* vet("https://Public.Example.Test:8443/x", { allowPrivate: false, resolve: spy })
      expect(asked).toEqual(["public.example.test"])
    })
  )

  it.effect("the default resolver is node:dns lookup (numeric hosts: no DNS query)", () =>
    Effect.gen(function* () {
      expect(yield* systemResolve("127.0.0.1")).toEqual([{ address: "127.0.0.1", family: 4 }])
      expect(yield* systemResolve("::1")).toEqual([{ address: "::1", family: 6 }])
      const target = yield* vet("http://93.184.216.34/", { allowPrivate: false })
      expect(target.address).toBe("93.184.216.34")
      const refused = yield* Effect.flip(vet("http://localhost/", { allowPrivate: false }))
      expect(refused.message).toBe("targetUrl host localhost is a loopback name")
    })
  )
})
