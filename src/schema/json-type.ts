/**
 * JSON type bits of a value, shared by the message validators (validate.ts, whose
 * generated tables use the same encoding, see scripts/gen-validators.mjs) and the JSON
 * Schema validator (json-schema.ts), and the cap on the issues any validator reports (and
 * their text in an error message). A
 * module of its own so that the JSON Schema validator does not load the message tables.
 */
import type { Issue } from "./validate.js";

/**
 * Most issues one validation reports, in every validator of src/schema (the JSON Schema
 * and elicitation ones add one more saying that more were not listed): a list as long as
 * the value is invalid would make an error reply many times the size of the request.
 */
export const MAX_ISSUES = 16;

/** The issue that ends a list cut at {@link MAX_ISSUES}: how many more there were, when the validator knows. */
export function moreIssues(count?: number): Issue {
  return { path: "", reason: count === undefined ? "more issues not listed" : `${count} more issues not listed` };
}

/** Longest entry {@link issuesText} writes (a path holds the instance's keys, which may be long). */
const TEXT_ENTRY = 200;

/** Issues as one line of text, for an error message: "/a: is required; /b: ...", each entry clipped. */
export function issuesText(issues: Issue[]): string {
  return issues
    .map((i) => {
      const t = `${i.path || "/"}: ${i.reason}`;
      return t.length > TEXT_ENTRY ? t.slice(0, TEXT_ENTRY) + "…" : t;
    })
    .join("; ");
}

/**
 * At most {@link MAX_ISSUES} of `issues` and one saying how many more there were, for an
 * error reply: whatever validator made them (an application's own may list every one),
 * the reply then stays small.
 */
export function capIssues(issues: Issue[]): Issue[] {
  if (issues.length <= MAX_ISSUES + 1) return issues;
  return [...issues.slice(0, MAX_ISSUES), moreIssues(issues.length - MAX_ISSUES)];
}

/**
 * The message and `data` of an error about `issues`: `what`, then the issues as text, both
 * capped ({@link capIssues}), so a reply stays small whichever validator listed them.
 */
export function issuesError(what: string, issues: Issue[]): { message: string; data: { issues: Issue[] } } {
  const shown = capIssues(issues);
  return { message: `${what}: ${issuesText(shown)}`, data: { issues: shown } };
}

export const T_STRING = 1, T_FRACTION = 2, T_INTEGER = 4, T_BOOLEAN = 8, T_NULL = 16, T_OBJECT = 32, T_ARRAY = 64;

/** The JSON type bit of `x` (0 for what JSON cannot hold: NaN, undefined, functions...). */
export function typeBit(x: unknown): number {
  switch (typeof x) {
    case "string":
      return T_STRING;
    case "number":
      return Number.isInteger(x) ? T_INTEGER : Number.isFinite(x) ? T_FRACTION : 0;
    case "boolean":
      return T_BOOLEAN;
    case "object":
      return x === null ? T_NULL : Array.isArray(x) ? T_ARRAY : T_OBJECT;
    default:
      return 0;
  }
}
