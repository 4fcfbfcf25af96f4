/**
 * Logging: the client's chosen level, and the server's filtered log messages.
 *
 * Spec: 2025-11-25 `server/utilities/logging`. Servers that emit `notifications/message`
 * MUST declare `logging`; the client MAY set a minimum level with `logging/setLevel`
 * (an invalid level is `-32602`, which schema validation answers before this code runs);
 * the server then sends only messages at that level or more severe. Before any
 * `setLevel`, the server sends every level (the page leaves the default to the server).
 */
import { LOGGING_LEVELS, type LoggingLevel } from "./types.js";

/** Severity rank: debug = 0 … emergency = 7; unknown levels rank as -1. */
export function levelRank(level: unknown): number {
  return LOGGING_LEVELS.indexOf(level as LoggingLevel);
}

/** True when a message at `level` passes a threshold (null threshold: everything passes). */
export function passesLevel(level: LoggingLevel, threshold: LoggingLevel | null): boolean {
  return threshold === null || levelRank(level) >= levelRank(threshold);
}
