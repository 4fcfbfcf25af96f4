// CONTRACT STUB — to be implemented by the schema helper. Signatures are fixed.
import type { ProtocolVersion } from "../model/versions.js";

/** One validation failure: where (RFC 6901 JSON pointer, "" for the root) and why. */
export interface Issue {
  path: string;
  reason: string;
}

/** A compiled validator: `null` when valid, else the issues found (at least one). */
export type Validator = (value: unknown) => Issue[] | null;

/** The typed value, or the issues. */
export type ValidationResult<T> = { ok: true; value: T } | { ok: false; issues: Issue[] };

/** The validator of schema type `typeName` (e.g. "CallToolResult") in `version`, if it exists. */
export function validatorFor(version: ProtocolVersion, typeName: string): Validator | undefined {
  throw new Error("stub");
}

/** Validates `value` as `typeName` of `version`; an unknown type name is an issue at "". */
export function validate<T = unknown>(version: ProtocolVersion, typeName: string, value: unknown): ValidationResult<T> {
  throw new Error("stub");
}

/** Every type name the schema of `version` defines. */
export function typeNames(version: ProtocolVersion): string[] {
  throw new Error("stub");
}
