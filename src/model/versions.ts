/**
 * Protocol versions the kernel speaks, and which era each belongs to.
 *
 * Spec: draft `basic/versioning` ("Terminology"). A *legacy* version opens with an
 * `initialize` handshake and keeps a session; a *modern* version carries version,
 * identity and capabilities in every request's `_meta`. The lists are in preference
 * order: the first is the latest, which a server falls back to when a client asks for a
 * version it does not support.
 */

/** Every version the kernel implements, latest first. */
export const PROTOCOL_VERSIONS = ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;

/** A protocol version string the kernel implements. */
export type ProtocolVersion = (typeof PROTOCOL_VERSIONS)[number];

/** The handshake-based versions, latest first. */
export const LEGACY_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;

/** The per-request-metadata versions, latest first. */
export const MODERN_VERSIONS = ["2026-07-28"] as const;

/** A legacy (handshake) version. */
export type LegacyVersion = (typeof LEGACY_VERSIONS)[number];

/** A modern (stateless) version. */
export type ModernVersion = (typeof MODERN_VERSIONS)[number];

/** Latest legacy version: what a legacy client asks for by default. */
export const LATEST_LEGACY_VERSION: LegacyVersion = "2025-11-25";

/** Latest modern version. */
export const LATEST_MODERN_VERSION: ModernVersion = "2026-07-28";

/** The versions that have their own vendored schema; `2024-11-05` is checked with `2025-03-26`'s. */
export const SCHEMA_VERSIONS = ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"] as const;

/** A version that has its own schema table. */
export type SchemaVersion = (typeof SCHEMA_VERSIONS)[number];

// The three tests below compare instead of calling `includes` on the lists: they run a
// score of times per request (every spec lookup asks one), and the builtin's call cost
// more than the comparisons. The lists stay the source of truth: a version added to one
// and not here fails the `versions` spec test, which checks each list against these.

/** True when `v` is a version string this kernel implements. */
export function isProtocolVersion(v: unknown): v is ProtocolVersion {
  return isModernVersion(v) || isLegacyVersion(v);
}

/** True when `v` is a legacy (handshake) version this kernel implements. */
export function isLegacyVersion(v: unknown): v is LegacyVersion {
  return v === "2025-11-25" || v === "2025-06-18" || v === "2025-03-26" || v === "2024-11-05";
}

/** True when `v` is a modern version this kernel implements. */
export function isModernVersion(v: unknown): v is ModernVersion {
  return v === "2026-07-28";
}

/** True when `v` is a version with its own schema ({@link SCHEMA_VERSIONS}). */
export function isSchemaVersion(v: unknown): v is SchemaVersion {
  return v === "2026-07-28" || v === "2025-11-25" || v === "2025-06-18" || v === "2025-03-26";
}

/**
 * The schema that validates messages of `v`. `2024-11-05` predates the vendored
 * schemas; `2025-03-26` is a superset of it for everything the kernel checks, so a
 * `2024-11-05` peer is validated leniently rather than not at all (its one content
 * difference, no audio, is checked on top: `rules2024` in `constraints.ts`).
 */
export function schemaVersionOf(v: ProtocolVersion): SchemaVersion {
  return v === "2024-11-05" ? "2025-03-26" : v;
}

/**
 * JSON-RPC batches: allowed only under `2025-03-26`, whose changelog "Added support for
 * JSON-RPC batching" (so a `2024-11-05` session refuses them too); `2025-06-18` removed them.
 */
export function allowsBatches(v: string | undefined): boolean {
  return v === "2025-03-26";
}

/**
 * Tool output schemas: `Tool.outputSchema` and `CallToolResult.structuredContent` arrived in
 * `2025-06-18` (its changelog lists structured tool output). An older
 * version's `Tool` has no such field, so one a server lists anyway binds its results to
 * nothing.
 */
export function hasToolOutputSchemas(v: string | undefined): boolean {
  return v !== "2025-03-26" && v !== "2024-11-05";
}

/**
 * SEP-1699 (2025-11-25): SSE streams open with a priming event (an id and empty data), and
 * a server may close a connection before the response (polling). Earlier versions had
 * neither: their server "SHOULD NOT close the SSE stream before sending the JSON-RPC
 * response", and their clients may hand an empty data event to `JSON.parse`.
 */
export function hasSsePolling(v: ProtocolVersion | undefined): boolean {
  return v === "2025-11-25";
}
