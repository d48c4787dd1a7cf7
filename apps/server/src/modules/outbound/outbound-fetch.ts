import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Agent, buildConnector, RequestInit as UndiciRequestInit } from 'undici';

/**
 * The policy for requests the product makes on a user's behalf (AI providers: connection test, chat answers,
 * transcription; the OpenAI-compatible embedder). A user types the base URL, so without a policy the server would
 * reach whatever it can reach: its own loopback services, the private network, cloud metadata addresses.
 *
 * The check runs where the socket is opened, on the addresses DNS actually returned (a custom `lookup` of an undici
 * `Agent`), so a name that resolves to a public address when it is typed and to 127.0.0.1 when it is called (DNS
 * rebinding) is still refused; IP literals, which never reach `lookup`, are checked before connecting. Redirects go
 * through the same agent and are checked the same way.
 */
export interface OutboundPolicy {
  /** Every address is allowed (OUTBOUND_ALLOW_PRIVATE). */
  allowPrivate: boolean;
  /** Hosts, addresses and ranges allowed even though they are private (OUTBOUND_ALLOWED_HOSTS and the operator's own). */
  allowed: AllowedHost[];
}

/** One entry of the allow list: a host name, or an address range (a single address is a /32 or /128), with a port. */
export type AllowedHost =
  | { kind: 'name'; name: string; port: number | null }
  | { kind: 'range'; range: [ipaddr.IPv4 | ipaddr.IPv6, number]; port: number | null };

/** The error of a connection the policy refused; it reaches callers as the `cause` of fetch's `TypeError`. */
export class OutboundBlockedError extends Error {
  readonly code = 'OUTBOUND_BLOCKED';
  constructor(host: string) {
    super(`connection to ${host} refused by policy (private or local address)`);
    this.name = 'OutboundBlockedError';
  }
}

/** Whether an error (or any of its causes) is the policy's refusal. */
export function isBlockedByPolicy(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof OutboundBlockedError || (e as { code?: unknown }).code === 'OUTBOUND_BLOCKED')
      return true;
  }
  return false;
}

/**
 * The address embedded in an IPv6 address that only wraps an IPv4 one (IPv4-mapped `::ffff:a.b.c.d`, NAT64
 * `64:ff9b::a.b.c.d`, 6to4 `2002:aabb:ccdd::`), else null.
 */
function embeddedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = ip.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  const range = ip.range();
  if (range === 'ipv4Mapped') return ip.toIPv4Address();
  if (range === 'rfc6052' && p[0] === 0x64 && p[1] === 0xff9b && p[2] === 0) return v4(p[6]!, p[7]!);
  if (range === '6to4') return v4(p[1]!, p[2]!);
  return null;
}

/**
 * Whether an address is public (globally routable unicast). Refused: loopback, unspecified (0.0.0.0/8, ::),
 * private (10/8, 172.16/12, 192.168/16), carrier-grade NAT (100.64/10), link-local (169.254/16, fe80::/10), multicast,
 * broadcast, reserved and documentation ranges, unique-local fc00::/7, site-local fec0::/10, everything outside
 * 2000::/3 in IPv6, and IPv6 forms of refused IPv4 addresses.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv4') return ip.range() === 'unicast';
  const v6 = ip as ipaddr.IPv6;
  const inner = embeddedIPv4(v6);
  if (inner) return inner.range() === 'unicast';
  // Global unicast is 2000::/3; the special ranges inside it (Teredo, benchmarking, ORCHID …) are refused too.
  return (v6.parts[0]! & 0xe000) === 0x2000 && v6.range() === 'unicast';
}

/**
 * Parses OUTBOUND_ALLOWED_HOSTS: comma-separated host names, addresses or CIDR ranges, each optionally with a port
 * (`localhost:11434`, `10.0.0.0/8`, `192.168.1.20:8000`, `[::1]:11434`, `fd00::/8`). Throws on an invalid entry.
 */
export function parseAllowedHosts(list: string | undefined): AllowedHost[] {
  return (list ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(parseAllowedHost);
}

function parseAllowedHost(entry: string): AllowedHost {
  let host = entry;
  let port: number | null = null;
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(entry);
  if (bracketed) {
    host = bracketed[1]!;
    port = bracketed[2] ? Number(bracketed[2]) : null;
  } else if ((entry.match(/:/g) ?? []).length === 1) {
    const at = entry.lastIndexOf(':');
    host = entry.slice(0, at);
    if (!/^\d{1,5}$/.test(entry.slice(at + 1))) throw new Error(`invalid port in "${entry}"`);
    port = Number(entry.slice(at + 1));
  }
  if (port !== null && (port < 1 || port > 65535)) throw new Error(`invalid port in "${entry}"`);
  if (host.includes('/')) {
    try {
      return { kind: 'range', range: ipaddr.parseCIDR(host), port };
    } catch {
      throw new Error(`invalid address range "${entry}"`);
    }
  }
  if (isIP(host)) {
    const ip = ipaddr.parse(host);
    return { kind: 'range', range: [ip, ip.kind() === 'ipv4' ? 32 : 128], port };
  }
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/i.test(host)) {
    throw new Error(`invalid host "${entry}"`);
  }
  return { kind: 'name', name: normalizeName(host), port };
}

const normalizeName = (host: string) => host.toLowerCase().replace(/\.$/, '');

const portMatches = (entry: AllowedHost, port: number) => entry.port === null || entry.port === port;

/** Whether a host name is allowed by name (then every address it resolves to is). */
function allowedByName(policy: OutboundPolicy, hostname: string, port: number): boolean {
  const name = normalizeName(hostname);
  return policy.allowed.some((e) => e.kind === 'name' && e.name === name && portMatches(e, port));
}

/** Whether the policy lets a connection go to this address (reached under `hostname` on `port`). */
export function addressAllowed(
  policy: OutboundPolicy,
  hostname: string,
  port: number,
  address: string,
): boolean {
  if (policy.allowPrivate || isPublicAddress(address)) return true;
  if (allowedByName(policy, hostname, port)) return true;
  if (!ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress())
    ip = (ip as ipaddr.IPv6).toIPv4Address();
  return policy.allowed.some(
    (e) => e.kind === 'range' && portMatches(e, port) && ip.kind() === e.range[0].kind() && ip.match(e.range),
  );
}

/** The policy of the configuration, plus hosts the operator configured themselves (e.g. EMBEDDER_URL's). */
export function outboundPolicy(
  config: { OUTBOUND_ALLOW_PRIVATE: boolean; OUTBOUND_ALLOWED_HOSTS?: string | undefined },
  operatorHosts: string[] = [],
): OutboundPolicy {
  return {
    allowPrivate: config.OUTBOUND_ALLOW_PRIVATE,
    allowed: [...parseAllowedHosts(config.OUTBOUND_ALLOWED_HOSTS), ...operatorHosts.map(parseAllowedHost)],
  };
}

/** The `host:port` allow-list entry of a URL the operator configured (brackets kept for IPv6). */
export function hostEntryOf(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || (u.protocol === 'https:' ? 443 : 80)}`;
}

export interface OutboundFetch {
  /** `fetch` whose connections obey the policy; a refused one fails with an `OutboundBlockedError` cause. */
  fetch: typeof globalThis.fetch;
  policy: OutboundPolicy;
  close(): Promise<void>;
}

type Connector = ReturnType<typeof buildConnector>;

/**
 * Creates the policy's `fetch`, once per process (its agent keeps the connections). undici is loaded with the first
 * call: many processes never make one, and it is one of the larger packages the server has.
 */
export function createOutboundFetch(policy: OutboundPolicy): OutboundFetch {
  let loaded: Promise<{ agent: Agent; undiciFetch: typeof import('undici').fetch }> | null = null;
  const load = () => {
    loaded ??= import('undici').then(({ Agent, buildConnector, fetch }) => ({
      agent: policyAgent(policy, Agent, buildConnector),
      undiciFetch: fetch,
    }));
    return loaded;
  };
  const outboundFetch = async (input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> => {
    const { agent, undiciFetch } = await load();
    const request = await portableRequest(input, init);
    const response = await undiciFetch(request.url, { ...request.init, dispatcher: agent });
    // The same Response; undici 8's declarations lack the iterators' `Symbol.dispose` that Node's global ones name.
    return response as unknown as Response;
  };
  const close = async () => {
    if (loaded) await (await loaded).agent.close();
  };
  return { fetch: outboundFetch, policy, close };
}

/** The agent whose connections obey the policy: IP literals are checked here, host names when DNS answers. */
function policyAgent(
  policy: OutboundPolicy,
  AgentClass: typeof Agent,
  connectorOf: typeof buildConnector,
): Agent {
  const connectors = new Map<number, Connector>();
  /** A connector whose DNS lookup keeps only the addresses the policy allows for this port. */
  const connectorFor = (port: number): Connector => {
    let connector = connectors.get(port);
    if (!connector) {
      connector = connectorOf({
        lookup: (hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
          dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
            if (error) return callback(error, '', 0);
            const usable = addresses.filter((a) => addressAllowed(policy, hostname, port, a.address));
            if (usable.length === 0) return callback(new OutboundBlockedError(hostname), '', 0);
            if (options.all)
              return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
            return callback(null, usable[0]!.address, usable[0]!.family);
          });
        },
      } as buildConnector.BuildOptions);
      connectors.set(port, connector);
    }
    return connector;
  };
  return new AgentClass({
    connect: (options, callback) => {
      const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
      const host = options.hostname.replace(/^\[(.*)\]$/, '$1');
      // An IP literal (also what the URL parser makes of http://2130706433/) never reaches `lookup`.
      if (isIP(host) && !addressAllowed(policy, host, port, host)) {
        callback(new OutboundBlockedError(host), null);
        return;
      }
      connectorFor(port)(options, callback);
    },
  });
}

/**
 * A request in undici's own terms. undici's `fetch` knows only its own `Request` class and would read a global one
 * (from Node's bundled undici) as the URL "[object Request]", so such a request goes as its URL with its method,
 * headers, body and signal (`init` wins). It also takes only its own FormData class as a body (since undici 8), and
 * Node's global one, which the AI SDK builds for a transcription upload, would go out as the text "[object FormData]":
 * such a body is encoded here by the global `Response`, as multipart with its boundary, and sent as bytes (with their
 * length). Blobs and typed arrays go as bytes too, headers as a record: the global and undici 8's declarations of
 * these classes differ.
 */
async function portableRequest(
  input: Parameters<typeof fetch>[0],
  init: RequestInit | undefined,
): Promise<{ url: string | URL; init: UndiciRequestInit }> {
  if (input instanceof Request) {
    const { method, headers, signal, redirect } = input;
    const body = init?.body ?? (input.body ? new Uint8Array(await input.arrayBuffer()) : undefined);
    return portableRequest(input.url, { method, headers, signal, redirect, ...init, body });
  }
  const { body, headers: given, ...rest } = init ?? {};
  const headers = Object.fromEntries(new Headers(given));
  if (body instanceof FormData) {
    const encoded = new Response(body);
    headers['content-type'] = encoded.headers.get('content-type') ?? 'multipart/form-data';
    return { url: input, init: { ...rest, headers, body: new Uint8Array(await encoded.arrayBuffer()) } };
  }
  if (body instanceof Blob) {
    if (body.type) headers['content-type'] ??= body.type;
    return { url: input, init: { ...rest, headers, body: await body.bytes() } };
  }
  if (ArrayBuffer.isView(body))
    return {
      url: input,
      init: { ...rest, headers, body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength) },
    };
  return { url: input, init: { ...rest, headers, body } };
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string, family: number) => void;
