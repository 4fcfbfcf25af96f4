/**
 * Redirects of the Streamable HTTP client, followed within the server's origin only.
 *
 * fetch follows a redirect to any origin and drops only `Authorization` on the way (Fetch
 * standard, HTTP-redirect fetch): the `MCP-Session-Id` (which lets whoever holds it act in
 * the session: 2025-11-25 `basic/transports`, "The client MUST handle the session ID in a
 * secure manner"), the application's own `headers` (an API key), `MCP-Protocol-Version`, a
 * modern request's `Mcp-*` and, on a 307/308, the JSON-RPC body went to the other origin,
 * and its answer was taken for the server's. So each request goes with
 * `redirect: "manual"`: a redirect within the origin is followed here as fetch follows it,
 * one to another origin (an https server's to plain http included) fails the request before
 * anything is sent there, as an `endpoint` event naming another origin does
 * (http-sse-client.ts).
 *
 * A browser hides a manual redirect's target (an opaque redirect, status 0): a page served
 * from the server's own origin sends the request again with `mode: "same-origin"`, under
 * which the browser follows redirects within the origin and fails one out of it before
 * sending; a page of another origin cannot tell where the redirect leads, and the request
 * fails, naming the cure (the URL the server redirects to).
 */
import { letGo } from "./body.js";

type Fetch = (input: string, init: RequestInit) => Promise<Response>;

/** Fetch's bound on one chain of redirects (HTTP-redirect fetch: past 20, a network error). */
const MAX_REDIRECTS = 20;

/** The headers a redirect that turns a POST into a GET drops with its body (Fetch: request-body-header names). */
const BODY_HEADERS = ["content-encoding", "content-language", "content-location", "content-type"];

/** A redirect not followed: final for its request (`retryable: false`), which fails at once instead of being sent again. */
export class RedirectRefused extends Error {
  override name = "RedirectRefused";
  readonly retryable = false;
}

/** The page's location, in a browser or worker; undefined elsewhere (Deno throws on `location` without `--location`). */
function page(): { origin?: unknown; href?: unknown } | undefined {
  try {
    return (globalThis as { location?: { origin?: unknown; href?: unknown } }).location;
  } catch {
    return undefined;
  }
}

/** The URL `url` names, resolved as fetch resolves it (a relative one against the page, in a browser); undefined if it names none. */
function resolve(url: string, base?: string): URL | undefined {
  const href = page()?.href;
  try {
    return new URL(url, base ?? (typeof href === "string" ? href : undefined));
  } catch {
    return undefined;
  }
}

const isRedirect = (status: number): boolean => status === 301 || status === 302 || status === 303 || status === 307 || status === 308;

/** `fetch`, with redirects followed only within the origin of the URL fetched (see the module doc). */
export function sameOriginRedirects(fetch: Fetch): Fetch {
  // A transport fetches the same URL on every request (two, for the HTTP+SSE fallback: the
  // stream's, then its endpoint's): it is parsed when it or the page it is resolved against
  // changes, not on every request of the transport.
  let lastInput: string | undefined;
  let lastBase: unknown;
  let lastStart: URL | undefined;
  return async (input, init) => {
    const base = page()?.href;
    if (input !== lastInput || base !== lastBase) {
      lastStart = resolve(input);
      lastInput = input;
      lastBase = base;
    }
    const start = lastStart;
    // A URL that names no origin here (a relative one outside a browser): fetch rejects it as
    // it always did, and a custom fetch that resolves it itself follows no redirect at all,
    // since where one leads cannot be judged.
    if (start === undefined) return fetch(input, { ...init, redirect: "error" });
    let origin = start.origin;
    let url = input;
    let at = start;
    let req = init;
    for (let hops = 0; ; hops++) {
      const res = await fetch(url, { ...req, redirect: "manual" });
      if (res.type === "opaqueredirect") {
        letGo(res.body);
        if (page()?.origin !== origin) {
          throw new RedirectRefused(`${origin} answered with a redirect whose target this runtime hides (a browser page of another origin): not followed, as it may lead to another origin, where the request, its session ID and headers would go; give the transport the URL the server redirects to`);
        }
        return unmoved(await fetch(url, { ...req, redirect: "follow", mode: "same-origin" }), origin);
      }
      if (!isRedirect(res.status)) return unmoved(res, origin);
      const location = res.headers.get("location");
      // fetch hands such an answer back as it is.
      if (location === null) return res;
      letGo(res.body);
      const next = resolve(location, at.href);
      if (next === undefined || !/^https?:$/.test(next.protocol)) throw new RedirectRefused(`${origin} answered HTTP ${res.status} with a Location that is no http(s) URL`);
      if (next.origin !== origin && !isUpgrade(at, next)) {
        throw new RedirectRefused(`${origin} redirected (HTTP ${res.status}) to another origin, ${next.origin}: not followed, as the request, its session ID and headers would go there; give the transport the URL it should use`);
      }
      if (hops === MAX_REDIRECTS) throw new RedirectRefused(`${origin} redirected more than ${MAX_REDIRECTS} times`);
      const method = (req.method ?? "GET").toUpperCase();
      // As fetch does: a 301/302 to a POST, and a 303 to anything but GET or HEAD, become a GET without a body.
      if (((res.status === 301 || res.status === 302) && method === "POST") || (res.status === 303 && method !== "GET" && method !== "HEAD")) {
        const headers = new Headers(req.headers);
        for (const name of BODY_HEADERS) headers.delete(name);
        const { body: _body, ...rest } = req;
        req = { ...rest, method: "GET", headers };
      }
      // Upgraded to https, the chain goes on within the https origin.
      origin = next.origin;
      at = next;
      url = next.href;
    }
  };
}

/**
 * An http URL's redirect to https on the same host (a server that moved to TLS): what the
 * request carries goes where it was going, encrypted. The other way round (https to http),
 * or to another host, it would not.
 */
function isUpgrade(from: URL, to: URL): boolean {
  return from.protocol === "http:" && to.protocol === "https:" && from.hostname === to.hostname;
}

/**
 * `res`, unless a fetch that followed the redirect itself (a custom one that ignores
 * `redirect`) ended on another origin: that origin's answer is not the server's.
 */
function unmoved(res: Response, origin: string): Response {
  if (!res.redirected || res.url === "" || resolve(res.url)?.origin === origin) return res;
  letGo(res.body);
  throw new RedirectRefused(`the request was redirected to another origin, ${resolve(res.url)?.origin ?? "unknown"}, by a fetch that follows redirects itself; its answer was not used`);
}
