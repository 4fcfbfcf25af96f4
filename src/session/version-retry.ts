// Spec: draft basic/versioning, Protocol Version Negotiation ("The client SHOULD select a
// mutually supported version from the `supported` list and retry the request, or surface an
// error to the user if no compatible version exists") and Backward Compatibility (a
// recognized modern error identifies a modern server: retry rather than fall back).
import { isModernVersion, type ModernVersion, type ProtocolVersion } from "../model/versions.js";

/**
 * How many times the client re-sends its probe after UnsupportedProtocolVersionError.
 * One retry is the flow the page draws (rejected, then retried with a mutually supported
 * version); a server that rejects the retry too is inconsistent, and answering it again
 * could loop forever (two versions each "unsupported" in favour of the other, or a
 * server that lists the very version it refused).
 */
export const MAX_VERSION_RETRIES = 1;

/** What the client does after a -32022 to its `server/discover` probe. */
export type VersionRetryDecision =
  /** Re-send the probe declaring `version`. */
  | { kind: "retry"; version: ModernVersion }
  /** A legacy version is in common: the server is dual-era; use `initialize`. */
  | { kind: "fallback" }
  /** Nothing more to try: close with `reason`. */
  | { kind: "give-up"; reason: string };

/**
 * Decides the client's answer to an UnsupportedProtocolVersionError (pure).
 *
 * @param ours the client's versions, in preference order
 * @param sent the version the rejected request declared
 * @param supported the error's `data.supported` (untrusted: anything but a string array counts as empty)
 * @param retries how many retries this negotiation has already made
 */
export function decideVersionRetry(ours: readonly ProtocolVersion[], sent: ModernVersion, supported: unknown, retries: number): VersionRetryDecision {
  const list = Array.isArray(supported) ? supported.filter((v): v is string => typeof v === "string") : [];
  const common = ours.filter((v): v is ModernVersion => isModernVersion(v) && list.includes(v));
  // A different version is a real offer; the version just sent is retried too, since a
  // server may list it (a transient refusal, or a test of the retry), but only within the bound.
  const version = common.find((v) => v !== sent) ?? common[0];
  if (version !== undefined && retries < MAX_VERSION_RETRIES) return { kind: "retry", version };
  if (ours.some((v) => !isModernVersion(v) && list.includes(v))) return { kind: "fallback" };
  const listed = list.length > 0 ? list.join(", ") : "none";
  if (version !== undefined) {
    return { kind: "give-up", reason: `the server kept refusing protocol version ${version} with -32022 UnsupportedProtocolVersion while listing it as supported (gave up after ${retries} ${retries === 1 ? "retry" : "retries"})` };
  }
  return { kind: "give-up", reason: `no protocol version in common: the server refused ${sent} with -32022 UnsupportedProtocolVersion (server supports: ${listed}; client: ${ours.join(", ")})` };
}
