/**
 * The checks every request to the Streamable HTTP handler passes before its era or method
 * is looked at: `Host` and `Origin` against the allow-lists (the DNS-rebinding defence),
 * then CORS for an admitted `Origin`.
 *
 * Spec: 2025-11-25 `basic/transports` ("Security Warning": servers MUST validate `Origin`
 * and answer an invalid one with 403), the same rule in the draft's
 * `basic/transports/streamable-http` ("Security & Endpoint"); CORS itself is the Fetch
 * standard's (`cors.ts`).
 *
 * Theory of operation. A rebinding page reaches a local server under its own host name, so
 * `Host` is checked first (unless `allowedHosts: false`, behind a proxy that checks it),
 * against loopback names by default; then `Origin`, when there is one, against loopback
 * origins by default. Either refusal is 403 (see `http-server.ts` for why `Host` gets 403
 * too). A request without `Origin` (not from a browser) goes on unchanged. An admitted
 * `Origin` with CORS on gets its preflight answered here (204, naming the methods the
 * handler serves) and every other answer gets the origin's CORS headers; CORS never
 * widens the Origin check. The guards are built once per handler from its options
 * ({@link requestGuards}) and run per request by {@link guarded}.
 */
import { ErrorCode } from "../../jsonrpc/errors.js";
import type { HttpHandlerOptions } from "../http-server.js";
import { withHeaders, type HttpReply, type HttpRequestView } from "../http-view.js";
import { httpError } from "./body.js";
import { corsHeaders, isPreflight, PREFLIGHT, preflightHeaders } from "./cors.js";
import { allowPredicate, H, hostnameOf, isLoopbackHostname, isLoopbackOrigin } from "./headers.js";

/** A handler's `Host` and `Origin` checks and whether it answers CORS, from its options. */
export interface RequestGuards {
  readonly originOk: (origin: string) => boolean;
  readonly cors: boolean;
  /** Undefined: `allowedHosts: false`, no `Host` check. */
  readonly hostOk: ((hostname: string) => boolean) | undefined;
}

/** The guards `options` ask for (defaults: loopback hosts and origins, CORS on). */
export function requestGuards(options: Pick<HttpHandlerOptions, "allowedOrigins" | "cors" | "allowedHosts">): RequestGuards {
  const originOk = allowPredicate(options.allowedOrigins, isLoopbackOrigin);
  const cors = options.cors !== false;
  const hostOk = options.allowedHosts === false ? undefined : allowPredicate(options.allowedHosts, isLoopbackHostname);
  return { originOk, cors, hostOk };
}

/**
 * `route(req)` if `req` passes the guards, else the 403; a preflight of an admitted origin
 * is answered with 204 allowing `methods`, and `route`'s answer to one gets its CORS headers.
 */
export async function guarded(req: HttpRequestView, guards: RequestGuards, methods: string, route: (req: HttpRequestView) => Promise<Response | HttpReply>): Promise<Response | HttpReply> {
  const refused = doorRefusal(req, guards);
  if (refused !== undefined) return refused;
  const origin = req.header(H.origin);
  if (origin === null || !guards.cors) return await route(req);
  if (isPreflight(req.method, req.header(PREFLIGHT.method))) {
    return { status: 204, headers: preflightHeaders(origin, methods, req.header(PREFLIGHT.headers)), body: null };
  }
  return withHeaders(await route(req), corsHeaders(origin));
}

/**
 * The 403 of a request whose `Host` or `Origin` the guards refuse (the DNS-rebinding
 * defence), or undefined when both pass. A wrapper in front of the handler
 * (`protectedResource`) asks it first, through the handler's {@link DOOR_CHECK}: the spec's
 * 403 for an invalid `Origin` is owed whatever the wrapper would say (a 401 challenge).
 */
export function doorRefusal(req: HttpRequestView, guards: RequestGuards): Response | undefined {
  const { hostOk, originOk } = guards;
  if (hostOk !== undefined) {
    const host = req.header(H.host) ?? req.url().host;
    const name = hostnameOf(host);
    if (name === undefined || !hostOk(name)) return httpError(403, ErrorCode.InvalidRequest, "Host not allowed");
  }
  const origin = req.header(H.origin);
  if (origin !== null && !originOk(origin)) return httpError(403, ErrorCode.InvalidRequest, "Origin not allowed");
  return undefined;
}
