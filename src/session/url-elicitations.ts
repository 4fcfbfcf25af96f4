/**
 * URL elicitations a client awaits the completion of.
 *
 * Spec: 2025-11-25 `client/elicitation` (Completion Notifications for URL Mode
 * Elicitation; URLElicitationRequiredError, -32042).
 *
 * Theory of operation. A server MAY announce with `notifications/elicitation/complete` that
 * a URL-mode elicitation is over, and a client MUST ignore one that references an unknown
 * or already-completed id. So the client remembers the ids it was given, by a URL-mode
 * `elicitation/create` or in a -32042 error's list of elicitations, and receive.ts hands a
 * completion to the application only for a remembered id, which it then forgets. The table
 * is bounded (`MAX_URL_ELICITATIONS`, the oldest forgotten first), and so is each id
 * (retained.ts).
 */
import { MAX_KEPT_ID_LENGTH, notKept, tooLong } from "./retained.js";
import type { SessionOutput, SessionState } from "./types.js";

/** Most URL elicitations a client remembers awaiting completion; the oldest is forgotten first. */
const MAX_URL_ELICITATIONS = 256;

/**
 * The table's ids, oldest first. Not `Object.keys(table)`: an object lists integer-like keys
 * first, in numeric order, so a server's newest elicitation "7" went before one it made 255
 * elicitations earlier. A state saved before the order was kept gets the key order it used.
 */
function orderOf(state: SessionState): string[] {
  return (state.urlElicitationOrder ??= Object.keys(state.urlElicitations));
}

/** Remembers a URL elicitation's id until its completion (the oldest is forgotten past the bound). */
export function rememberUrlElicitation(state: SessionState, elicitationId: string): void {
  const table = state.urlElicitations;
  if (Object.hasOwn(table, elicitationId)) return;
  const order = orderOf(state);
  if (order.length >= MAX_URL_ELICITATIONS) delete table[order.shift()!];
  // defineProperty: an id such as "__proto__" stays an own key (assignment would hit the prototype setter and be lost).
  Object.defineProperty(table, elicitationId, { value: true, enumerable: true, writable: true, configurable: true });
  order.push(elicitationId);
}

/** A completion for `elicitationId` came: true (and it is forgotten) if it was remembered, false if unknown or already completed. */
export function completeUrlElicitation(state: SessionState, elicitationId: string): boolean {
  if (!Object.hasOwn(state.urlElicitations, elicitationId)) return false;
  const order = orderOf(state);
  const at = order.indexOf(elicitationId);
  if (at >= 0) order.splice(at, 1);
  delete state.urlElicitations[elicitationId];
  return true;
}

/**
 * A URLElicitationRequiredError (-32042) announces URL elicitations the client may wait on:
 * 2025-11-25 `client/elicitation` lets it "wait for this notification to automatically retry
 * requests that received a URLElicitationRequiredError", and the error's elicitations MUST be
 * URL mode with an `elicitationId`. Those ids are remembered like an `elicitation/create`'s,
 * so their `notifications/elicitation/complete` reaches the application; entries of any
 * other shape are skipped, and at most the table's bound is taken from one error. An id
 * longer than an `elicitation/create` may carry (retained.ts) is skipped too, with a
 * diagnostic: the error cannot be refused, and the table would hold it until completion.
 */
export function rememberRequiredElicitations(state: SessionState, data: unknown, out: SessionOutput[]): void {
  const list = (data as { elicitations?: unknown } | null | undefined)?.elicitations;
  if (!Array.isArray(list)) return;
  for (const e of list.slice(0, MAX_URL_ELICITATIONS)) {
    const { mode, elicitationId } = (e ?? {}) as { mode?: unknown; elicitationId?: unknown };
    if (mode !== "url" || typeof elicitationId !== "string") continue;
    if (tooLong(elicitationId, MAX_KEPT_ID_LENGTH)) notKept(out, "an elicitationId of a -32042 error", MAX_KEPT_ID_LENGTH, elicitationId.length);
    else rememberUrlElicitation(state, elicitationId);
  }
}
