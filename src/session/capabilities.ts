/**
 * Capability gating: what each side may send, given what the other side declared.
 *
 * Spec: 2025-11-25 `basic/lifecycle` ("Capability Negotiation": both parties MUST only use
 * capabilities that were successfully negotiated) and the feature pages: a request for a
 * feature the receiver did not declare gets `-32601` (e.g. `client/roots`: "Client does
 * not support roots: -32601"; `server/utilities/completion`); an elicitation in a mode the
 * client did not declare gets `-32602` (`client/elicitation`, Error Handling); tool-enabled
 * sampling needs `sampling.tools` (`client/sampling`).
 *
 * The method table says whose capability gates a method (`MethodSpec.capability.side`):
 * for a request that is the receiver's, for a notification the sender's (a server sends
 * `notifications/tools/list_changed` only if it declared `tools.listChanged`). The same
 * check guards both directions: refusing to send, and refusing to accept.
 */
import { ErrorCode, rpcError, type JsonRpcErrorObject } from "../jsonrpc/errors.js";
import type { JsonObject } from "../jsonrpc/types.js";
import { capabilityFor, hasCapability, type MethodSpec, type Side } from "../model/methods.js";

/**
 * The dotted capability `spec` needs that is missing (e.g. `server.tools`), or null.
 * `sender` matters for methods both sides send (2025-11-25 `tasks/*`): the receiver's
 * capability gates them, whichever side that is.
 */
export function missingCapability(spec: MethodSpec, self: Side, own: JsonObject, peer: JsonObject | undefined, sender: Side): string | null {
  const need = capabilityFor(spec, sender);
  if (need === null) return null;
  const declared = need.side === self ? own : peer;
  return hasCapability(declared, need.path) ? null : `${need.side}.${need.path}`;
}

/**
 * Checks that depend on the params, not only the method: elicitation modes and
 * tool-enabled sampling. Returns the error the receiver answers with (and the sender uses
 * to refuse), or null. `sentIn`, the version of a request this side is about to send,
 * adds the sender's own check, `undeclaredContext`.
 */
export function paramsCapabilityError(method: string, params: JsonObject | undefined, clientCapabilities: JsonObject | undefined, sentIn?: string): JsonRpcErrorObject | null {
  const missing = missingParamsCapability(method, params, clientCapabilities) ?? (sentIn !== undefined && sentIn >= "2025-11-25" ? undeclaredContext(method, params, clientCapabilities) : null);
  if (missing === null) return null;
  const message = method === "elicitation/create" ? `client did not declare elicitation mode "${missing.slice("elicitation.".length)}"` : `client did not declare ${missing}`;
  return rpcError(ErrorCode.InvalidParams, message, { requiredCapabilities: addCapabilityPath({}, missing) });
}

/** The dotted client capability the params need and the client lacks (`elicitation.url`, `sampling.tools`), or null. */
export function missingParamsCapability(method: string, params: JsonObject | undefined, clientCapabilities: JsonObject | undefined): string | null {
  if (method === "elicitation/create") {
    const mode = params?.mode ?? "form";
    return elicitationModeDeclared(clientCapabilities, mode) ? null : `elicitation.${String(mode)}`;
  }
  if (method === "sampling/createMessage" && params !== undefined && (params.tools !== undefined || params.toolChoice !== undefined)) {
    return hasCapability(clientCapabilities, "sampling.tools") ? null : "sampling.tools";
  }
  return null;
}

/**
 * `includeContext: "thisServer"` / `"allServers"` without `sampling.context`: servers
 * "SHOULD NOT use them unless the client declares sampling.context capability" (2025-11-25
 * and draft `client/sampling`, which introduced the capability), so ours refuses to send
 * them. Only the sender checks: a client "MAY modify or ignore this field", so a receiving
 * client accepts it. `"none"` or no `includeContext` needs nothing.
 */
export function undeclaredContext(method: string, params: JsonObject | undefined, clientCapabilities: JsonObject | undefined): string | null {
  if (method !== "sampling/createMessage" || (params?.includeContext !== "thisServer" && params?.includeContext !== "allServers")) return null;
  return hasCapability(clientCapabilities, "sampling.context") ? null : "sampling.context";
}

/**
 * Elicitation modes (2025-11-25 `client/elicitation`, Capabilities): an `elicitation`
 * object with neither `form` nor `url` means form only, for compatibility with clients of
 * `2025-06-18`, which had no modes.
 */
export function elicitationModeDeclared(clientCapabilities: JsonObject | undefined, mode: unknown): boolean {
  if (!hasCapability(clientCapabilities, "elicitation")) return false;
  const e = clientCapabilities!.elicitation as JsonObject;
  const hasForm = hasCapability(e, "form");
  const hasUrl = hasCapability(e, "url");
  if (mode === "form") return hasForm || !hasUrl;
  if (mode === "url") return hasUrl;
  return false;
}

/**
 * Adds a dotted capability path to a capabilities object, in the shape
 * `MissingRequiredClientCapabilityError.data.requiredCapabilities` uses: `sampling.tools`
 * becomes `{ sampling: { tools: {} } }`, merged with what `target` already holds.
 * Returns `target`.
 */
export function addCapabilityPath(target: JsonObject, path: string): JsonObject {
  let node = target;
  for (const segment of path.split(".")) {
    if (!Object.hasOwn(node, segment)) Object.defineProperty(node, segment, { value: {}, enumerable: true, writable: true, configurable: true });
    node = node[segment] as JsonObject;
  }
  return target;
}
