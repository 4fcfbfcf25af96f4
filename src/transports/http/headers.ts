/**
 * HTTP header mechanics of Streamable HTTP: content negotiation, header-value safety,
 * DNS-rebinding checks and session ids.
 *
 * Spec: 2025-11-25 `basic/transports` ("Streamable HTTP": the `Accept` a client MUST
 * send, the `Origin` a server MUST validate, session ids of visible ASCII only) and
 * draft `basic/transports/streamable-http` ("Security & Endpoint").
 *
 * Theory of operation. Everything here is a pure function of header text. Nothing builds
 * a regular expression from request data: media ranges are split on `,` and `;` by hand,
 * hosts and origins are parsed with `URL` (which never throws out of here) and compared
 * as strings. A value that becomes a response or request header passes
 * {@link isSafeHeaderValue} first, so no CR or LF can split a header.
 */

/** Header names, in the case the spec writes them (HTTP compares names case-insensitively). */
export const H = {
  sessionId: "MCP-Session-Id",
  protocolVersion: "MCP-Protocol-Version",
  lastEventId: "Last-Event-ID",
  accept: "Accept",
  contentType: "Content-Type",
  origin: "Origin",
  host: "Host",
} as const;

/** The media types Streamable HTTP speaks. */
export const JSON_TYPE = "application/json";
/** The SSE media type. */
export const SSE_TYPE = "text/event-stream";

/**
 * True when the `Accept` header admits `type` (RFC 9110 §12.5.1): an exact media range,
 * `type/*` or `*\/*`, with any `q` other than 0. A missing header admits nothing: the
 * spec makes the client list what it accepts.
 */
export function accepts(accept: string | null, type: string): boolean {
  if (accept === null) return false;
  const slash = type.indexOf("/");
  const major = type.slice(0, slash);
  let start = 0;
  const n = accept.length;
  while (start <= n) {
    let end = accept.indexOf(",", start);
    if (end === -1) end = n;
    const range = accept.slice(start, end);
    start = end + 1;
    const semi = range.indexOf(";");
    const media = (semi === -1 ? range : range.slice(0, semi)).trim().toLowerCase();
    if (media !== type && media !== "*/*" && !(media.endsWith("/*") && media.slice(0, -2) === major)) continue;
    if (semi === -1 || !refuses(range.slice(semi + 1))) return true;
  }
  return false;
}

/** True when media-range parameters carry `q=0` (0, 0.0, 0.00, 0.000): "not acceptable". */
function refuses(params: string): boolean {
  for (const p of params.split(";")) {
    const eq = p.indexOf("=");
    if (eq === -1 || p.slice(0, eq).trim().toLowerCase() !== "q") continue;
    const v = p.slice(eq + 1).trim();
    return v === "0" || v === "0." || v === "0.0" || v === "0.00" || v === "0.000";
  }
  return false;
}

/** True when `Content-Type` is `application/json`, with or without parameters (`charset=utf-8`). */
export function isJsonContentType(value: string | null): boolean {
  if (value === null) return false;
  const semi = value.indexOf(";");
  return (semi === -1 ? value : value.slice(0, semi)).trim().toLowerCase() === JSON_TYPE;
}

/** The media type of a `Content-Type`, lower-cased, without parameters (`""` when absent). */
export function mediaTypeOf(value: string | null): string {
  if (value === null) return "";
  const semi = value.indexOf(";");
  return (semi === -1 ? value : value.slice(0, semi)).trim().toLowerCase();
}

/** Visible ASCII only (0x21 to 0x7E), non-empty: what a session id MUST be. */
export function isVisibleAscii(value: string): boolean {
  if (value.length === 0) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x21 || c > 0x7e) return false;
  }
  return true;
}

/**
 * A header value that cannot split or smuggle a header: visible ASCII, space and tab
 * only (RFC 9110 §5.5), so no CR, LF or NUL, and no leading or trailing whitespace
 * (which HTTP would strip, changing the value).
 */
export function isSafeHeaderValue(value: string): boolean {
  const n = value.length;
  if (n === 0) return true;
  if (!isFieldValueText(value)) return false;
  const first = value.charCodeAt(0);
  const last = value.charCodeAt(n - 1);
  return first !== 0x20 && first !== 0x09 && last !== 0x20 && last !== 0x09;
}

/** Only the characters a field value may hold (RFC 9110 §5.5, obs-text aside): visible ASCII, space and tab. */
export function isFieldValueText(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09) || c > 0x7e) return false;
  }
  return true;
}

/** A header name token (RFC 9110 `1*tchar`). */
export function isHeaderName(name: string): boolean {
  if (name.length === 0) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    const alnum = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
    if (!alnum && "!#$%&'*+-.^_`|~".indexOf(name[i]) === -1) return false;
  }
  return true;
}

/** The loopback host names a local server answers to by default. */
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** True for `localhost`, `127.0.0.1` and `[::1]` (as `URL` writes host names). */
export function isLoopbackHostname(hostname: string): boolean {
  return LOOPBACK.has(hostname.toLowerCase());
}

/**
 * The host name of a `Host` header value (`host[:port]`, RFC 9110 §7.2), lower-cased,
 * or `undefined` when it is not a plain authority: empty, userinfo, a path, a bad port.
 * An IPv6 literal keeps its brackets (`[::1]`), as `URL.hostname` writes it.
 */
export function hostnameOf(host: string): string | undefined {
  let name: string;
  let rest: string;
  if (host.charCodeAt(0) === 0x5b /* [ */) {
    const close = host.indexOf("]");
    if (close === -1) return undefined;
    name = host.slice(0, close + 1);
    rest = host.slice(close + 1);
  } else {
    const colon = host.indexOf(":");
    name = colon === -1 ? host : host.slice(0, colon);
    rest = colon === -1 ? "" : host.slice(colon);
  }
  if (name.length === 0 || !isVisibleAscii(name) || name.indexOf("@") !== -1 || name.indexOf("/") !== -1) return undefined;
  if (rest.length > 0) {
    if (rest.charCodeAt(0) !== 0x3a /* : */ || rest.length > 6) return undefined;
    for (let i = 1; i < rest.length; i++) {
      const c = rest.charCodeAt(i);
      if (c < 0x30 || c > 0x39) return undefined;
    }
  }
  return name.toLowerCase();
}

/**
 * The default `Origin` policy: an `http:` or `https:` origin on a loopback host, any
 * port. The opaque origin `null` and everything else are refused.
 */
export function isLoopbackOrigin(origin: string): boolean {
  try {
    const u = new URL(origin);
    return (u.protocol === "http:" || u.protocol === "https:") && isLoopbackHostname(u.hostname);
  } catch {
    return false;
  }
}

/** A policy: a list of exact values (compared case-insensitively) or a predicate. */
export type AllowList = readonly string[] | ((value: string) => boolean);

/** Compiles an {@link AllowList} (or the default) into one predicate, once, at setup. */
export function allowPredicate(list: AllowList | undefined, fallback: (value: string) => boolean): (value: string) => boolean {
  if (list === undefined) return fallback;
  if (typeof list === "function") return list;
  const set = new Set(list.map((v) => v.toLowerCase()));
  return (value) => set.has(value.toLowerCase());
}

/** 128 random bits as 32 lower-case hex digits: visible ASCII, as session ids must be. */
export function randomSessionId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  let s = "";
  for (let i = 0; i < 16; i++) s += (bytes[i] < 16 ? "0" : "") + bytes[i].toString(16);
  return s;
}
