/**
 * SSRF guard for webhook targets: decides whether a URL may be posted to, and
 * pins the IP address the sender must connect to (against DNS rebinding).
 *
 * @module
 */
import { lookup } from "node:dns"
import { isIP } from "node:net"
import * as Effect from "effect/Effect"
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"

/**
 * A URL that passed {@link vet}, with the one address to connect to.
 *
 * @example
 * ```ts
 * const target: VettedTarget = { url: new URL("https://hooks.example.com/x"), address: "93.184.216.34", family: 4 }
 * ```
 */
export interface VettedTarget {
  readonly url: URL
  readonly address: string
  readonly family: 4 | 6
}

/**
 * The target URL is not allowed; `message` names the reason, e.g.
 * `targetUrl resolves to a private address (10.0.0.5)`.
 *
 * @example
 * ```ts
 * vet(url, { allowPrivate: false }).pipe(
 *   Effect.catchTag("SsrfRejected", (e) => Effect.fail(new BadRequest({ error: e.message })))
 * )
 * ```
 */
export class SsrfRejected extends Schema.TaggedError<SsrfRejected>()("SsrfRejected", {
  message: Schema.String
}) {}

/**
 * The target's host name could not be resolved now (no such name, a DNS
 * server failure or timeout, no address): unlike {@link SsrfRejected}, not a
 * verdict on the target, so a delivery tries again on its retry schedule.
 */
export class TargetUnresolved extends Schema.TaggedError<TargetUnresolved>()("TargetUnresolved", {
  message: Schema.String
}) {}

/**
 * A DNS resolver as {@link vet} uses it: every address of a host name.
 *
 * @example
 * ```ts
 * const fake: Resolve = () => Effect.succeed([{ address: "93.184.216.34", family: 4 }])
 * ```
 */
export type Resolve = (
  hostname: string
) => Effect.Effect<ReadonlyArray<{ readonly address: string; readonly family: 4 | 6 }>, unknown>

/**
 * Options of {@link vet}.
 *
 * @example
 * ```ts
 * const options: VetOptions = { allowPrivate: process.env.QFORMS_ALLOW_PRIVATE_WEBHOOK_TARGETS === "true" }
 * ```
 */
export interface VetOptions {
  /** Turns the address rules off (local development and tests); scheme and credential rules still apply. */
  readonly allowPrivate: boolean
  /** Resolver for DNS names; default: `node:dns` `lookup` with `all: true`. */
  readonly resolve?: Resolve | undefined
}

// ---------------------------------------------------------------------------
// Address classification

const v4ToInt = (ip: string): number => {
  const parts = ip.split(".").map(Number)
  return ((parts[0] << 24) | (parts[1] << 16) | (parts[2] << 8) | parts[3]) >>> 0
}

const intToV4 = (n: number): string => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".")

const v4Range = (base: string, bits: number, kind: string) => {
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0
  const network = (v4ToInt(base) & mask) >>> 0
  return { kind, contains: (n: number) => (n & mask) >>> 0 === network }
}

/** Forbidden IPv4 ranges, most specific first. */
const V4_RANGES = [
  v4Range("255.255.255.255", 32, "broadcast"),
  v4Range("0.0.0.0", 8, "unspecified"),
  v4Range("127.0.0.0", 8, "loopback"),
  v4Range("10.0.0.0", 8, "private"),
  v4Range("172.16.0.0", 12, "private"),
  v4Range("192.168.0.0", 16, "private"),
  v4Range("169.254.0.0", 16, "link-local"),
  v4Range("100.64.0.0", 10, "shared (CGNAT)"),
  v4Range("192.0.0.0", 24, "reserved (IETF protocol assignments)"),
  v4Range("192.0.2.0", 24, "documentation"),
  v4Range("198.51.100.0", 24, "documentation"),
  v4Range("203.0.113.0", 24, "documentation"),
  v4Range("198.18.0.0", 15, "benchmarking"),
  v4Range("192.88.99.0", 24, "reserved (6to4 relay)"),
  v4Range("224.0.0.0", 4, "multicast"),
  v4Range("240.0.0.0", 4, "reserved")
]

const v4Reason = (n: number): string | undefined => V4_RANGES.find((r) => r.contains(n))?.kind

/** 16 bytes of an IPv6 literal that `isIP` accepted (zone id stripped). */
const v6Bytes = (ip: string): Uint8Array => {
  const zoneless = ip.split("%")[0]
  const groups = (part: string): Array<number> => {
    if (part === "") return []
    const out: Array<number> = []
    for (const piece of part.split(":")) {
      if (piece.includes(".")) {
        const n = v4ToInt(piece)
        out.push(n >>> 16, n & 0xffff)
      } else {
        out.push(parseInt(piece, 16))
      }
    }
    return out
  }
  const [head, tail] = zoneless.includes("::") ? zoneless.split("::") : [zoneless, undefined]
  const left = groups(head)
  const right = tail === undefined ? [] : groups(tail)
  const all = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right]
  const bytes = new Uint8Array(16)
  all.forEach((g, i) => {
    bytes[2 * i] = g >>> 8
    bytes[2 * i + 1] = g & 255
  })
  return bytes
}

const bytesToInt = (b: Uint8Array, at: number): number =>
  ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0

const startsWith = (b: Uint8Array, prefix: ReadonlyArray<number>, bits: number): boolean => {
  for (let bit = 0; bit < bits; bit += 8) {
    const take = Math.min(8, bits - bit)
    const mask = (0xff << (8 - take)) & 0xff
    if ((b[bit / 8] & mask) !== ((prefix[bit / 8] ?? 0) & mask)) return false
  }
  return true
}

const embedded = (label: string, v4: number): string | undefined => {
  const reason = v4Reason(v4)
  return reason === undefined ? undefined : `${label} ${reason} (${intToV4(v4)})`
}

const v6Reason = (b: Uint8Array): string | undefined => {
  if (b.every((x) => x === 0)) return "unspecified"
  if (b.slice(0, 15).every((x) => x === 0) && b[15] === 1) return "loopback"
  // ::ffff:a.b.c.d (IPv4-mapped) and ::a.b.c.d (IPv4-compatible, deprecated)
  if (startsWith(b, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff], 96)) return embedded("IPv4-mapped", bytesToInt(b, 12))
  if (startsWith(b, [], 96)) return embedded("IPv4-compatible", bytesToInt(b, 12)) ?? "reserved"
  // 64:ff9b::/96 well-known NAT64 prefix
  if (startsWith(b, [0, 0x64, 0xff, 0x9b], 96)) return embedded("NAT64", bytesToInt(b, 12))
  // 64:ff9b:1::/48 local-use NAT64 (RFC 8215): the embedding varies, refuse outright
  if (startsWith(b, [0, 0x64, 0xff, 0x9b, 0, 1], 48)) return "local-use NAT64"
  // 2002::/16 6to4, IPv4 in bits 16..47
  if (startsWith(b, [0x20, 0x02], 16)) return embedded("6to4", bytesToInt(b, 2))
  // 2001::/32 Teredo: server IPv4 in bits 32..63, client IPv4 inverted in the last 32 bits
  if (startsWith(b, [0x20, 0x01, 0, 0], 32)) {
    return embedded("Teredo server", bytesToInt(b, 4)) ?? embedded("Teredo client", ~bytesToInt(b, 12) >>> 0)
  }
  if (startsWith(b, [0x20, 0x01, 0x0d, 0xb8], 32)) return "documentation"
  if (startsWith(b, [0x20, 0x01, 0, 0x02, 0, 0], 48)) return "benchmarking"
  if (startsWith(b, [0xfe, 0x80], 10)) return "link-local"
  if (startsWith(b, [0xfe, 0xc0], 10)) return "site-local"
  if (startsWith(b, [0xfc], 7)) return "unique-local"
  if (startsWith(b, [0xff], 8)) return "multicast"
  if (startsWith(b, [0x01, 0, 0, 0, 0, 0, 0, 0], 64)) return "discard-only"
  // Everything outside 2000::/3 (global unicast) is reserved.
  if (!startsWith(b, [0x20], 3)) return "reserved"
  return undefined
}

/**
 * Why an IP address literal may not be a webhook target (`"loopback"`,
 * `"private"`, `"link-local"`, `"IPv4-mapped loopback (127.0.0.1)"`, ...), or
 * `undefined` for a public address. Anything that is not an IPv4/IPv6 literal
 * gives `"not an IP address"` (fail closed).
 *
 * @example
 * ```ts
 * forbiddenReason("10.0.0.5") // "private"
 * forbiddenReason("93.184.216.34") // undefined
 * ```
 */
export const forbiddenReason = (ip: string): string | undefined => {
  switch (isIP(ip)) {
    case 4:
      return v4Reason(v4ToInt(ip))
    case 6:
      return v6Reason(v6Bytes(ip))
    default:
      return "not an IP address"
  }
}

/**
 * Whether an IPv4/IPv6 literal is loopback, unspecified, private (RFC 1918),
 * link-local, CGNAT, unique-local, multicast, broadcast, reserved,
 * documentation or benchmarking, including IPv4-mapped, IPv4-compatible,
 * NAT64, 6to4 and Teredo forms embedding such an IPv4 address. A string that is
 * not an IP literal is forbidden.
 *
 * @example
 * ```ts
 * isForbiddenAddress("169.254.169.254") // true
 * isForbiddenAddress("::ffff:7f00:1") // true
 * isForbiddenAddress("2606:2800:220:1:248:1893:25c8:1946") // false
 * ```
 */
export const isForbiddenAddress = (ip: string): boolean => forbiddenReason(ip) !== undefined

// ---------------------------------------------------------------------------
// URL vetting

const describeError = (error: unknown): string => {
  if (Predicate.hasProperty(error, "code") && Predicate.isString(error.code)) return error.code
  if (Predicate.hasProperty(error, "message") && Predicate.isString(error.message)) return error.message
  return String(error)
}

/**
 * The default resolver: `node:dns` `lookup` (the system resolver, as
 * `node:http` would use), every address, in resolver order.
 *
 * @example
 * ```ts
 * const addresses = yield* systemResolve("example.com")
 * ```
 */
export const systemResolve: Resolve = (hostname) =>
  Effect.callback<ReadonlyArray<{ readonly address: string; readonly family: 4 | 6 }>, unknown>((resume) => {
    lookup(hostname, { all: true, order: "verbatim" }, (error, addresses) => {
      if (error !== null) {
        resume(Effect.fail(error))
      } else {
        resume(Effect.succeed(addresses.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }))))
      }
    })
  })

const withArticle = (kind: string): string => `${/^(?:[aeio]|u(?!ni))/i.test(kind) ? "an" : "a"} ${kind}`

const reject = (message: string) => Effect.fail(new SsrfRejected({ message }))

const familyOf = (ip: string): 4 | 6 | undefined => {
  const family = isIP(ip)
  return family === 4 ? 4 : family === 6 ? 6 : undefined
}

/**
 * The checks of {@link vet} that need no DNS: a valid `http`/`https` URL
 * without credentials, an IP literal that is not forbidden, or a name that is
 * not `localhost`/`*.localhost`. Answers the vetted target of an IP literal,
 * or the host name still to resolve. A name that cannot be resolved yet must
 * still pass these (subscribing checks them, delivery checks everything).
 *
 * @example
 * ```ts
 * const rejected = yield* Effect.flip(vetWithoutDns("http://user@hooks.example.com/", { allowPrivate: false }))
 * // rejected.message === "targetUrl must not contain credentials"
 * ```
 */
export const vetWithoutDns = Effect.fn("SsrfGuard.vetWithoutDns")(function* (
  url: string,
  options: Pick<VetOptions, "allowPrivate">
): Effect.fn.Return<VettedTarget | { readonly url: URL; readonly hostname: string }, SsrfRejected> {
  const parsed = URL.parse(url)
  if (parsed === null) return yield* reject("targetUrl is not a valid URL")
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return yield* reject(`targetUrl must use http or https (got ${parsed.protocol.replace(/:$/, "")})`)
  }
  if (parsed.username !== "" || parsed.password !== "") {
    return yield* reject("targetUrl must not contain credentials")
  }
  const host = parsed.hostname.startsWith("[") ? parsed.hostname.slice(1, -1) : parsed.hostname
  if (host === "") return yield* reject("targetUrl has no host")

  const literalFamily = familyOf(host)
  if (literalFamily !== undefined) {
    const reason = options.allowPrivate ? undefined : forbiddenReason(host)
    if (reason !== undefined) return yield* reject(`targetUrl is ${withArticle(reason)} address (${host})`)
    return { url: parsed, address: host, family: literalFamily }
  }

  const name = host.toLowerCase().replace(/\.$/, "")
  if (!options.allowPrivate && (name === "localhost" || name.endsWith(".localhost"))) {
    return yield* reject(`targetUrl host ${host} is a loopback name`)
  }
  return { url: parsed, hostname: host }
})

/**
 * Checks a webhook `targetUrl` and pins the address to connect to. Rules:
 * `http`/`https` only; no user name or password; the host may be an IP literal
 * (any spelling the WHATWG URL parser accepts: `2130706433`, `0177.0.0.1`,
 * `0x7f.0.0.1` and `127.1` all become `127.0.0.1`) or a DNS name, which is
 * resolved; unless `allowPrivate`, `localhost`/`*.localhost` are refused, and
 * so is the URL if the literal or ANY resolved address is forbidden
 * ({@link isForbiddenAddress}). The vetted address is the first resolved one.
 * Use it at subscribe time and again right before each delivery, and connect
 * only to `address` (see `Sender.post`).
 *
 * @example
 * ```ts
 * const target = yield* vet("https://hooks.example.com/qforms", { allowPrivate: false })
 * // { url, address: "93.184.216.34", family: 4 }
 * const rejected = yield* Effect.flip(vet("http://10.0.0.5/", { allowPrivate: false }))
 * // rejected.message === "targetUrl is a private address (10.0.0.5)"
 * ```
 */
export const vet = Effect.fn("SsrfGuard.vet")(function* (
  url: string,
  options: VetOptions
): Effect.fn.Return<VettedTarget, SsrfRejected | TargetUnresolved> {
  const checked = yield* vetWithoutDns(url, options)
  if ("address" in checked) return checked
  const { url: parsed, hostname: host } = checked
  const resolve = options.resolve ?? systemResolve
  const addresses = yield* resolve(host).pipe(
    Effect.catch((error) =>
      Effect.fail(
        new TargetUnresolved({ message: `targetUrl host ${host} could not be resolved (${describeError(error)})` })
      )
    )
  )
  if (addresses.length === 0)
    return yield* new TargetUnresolved({ message: `targetUrl host ${host} resolves to no address` })
  const vetted: Array<VettedTarget> = []
  for (const { address } of addresses) {
    const family = familyOf(address)
    if (family === undefined) return yield* reject(`targetUrl host ${host} resolves to an invalid address (${address})`)
    const reason = options.allowPrivate ? undefined : forbiddenReason(address)
    if (reason !== undefined) return yield* reject(`targetUrl resolves to ${withArticle(reason)} address (${address})`)
    vetted.push({ url: parsed, address, family })
  }
  return vetted[0]
})
