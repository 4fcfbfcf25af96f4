// CONTRACT STUB — to be implemented by the schema helper. Signatures are fixed.
import type { ProtocolVersion, SchemaVersion } from "./versions.js";
import type { Validator } from "../schema/validate.js";

/** A side of the connection. */
export type Side = "client" | "server";

/** Where a capability lives: which side declares it and its dotted path, e.g. `resources.subscribe`. */
export interface CapabilityRef {
  side: Side;
  path: string;
}

/** Everything the kernel knows about one method or notification in one version. */
export interface MethodSpec {
  method: string;
  kind: "request" | "notification";
  /** Who sends it. */
  from: Side | "both";
  /** Schema type name of the params object, or null when the schema gives none. */
  paramsType: string | null;
  /** Schema type name of the result (requests only), else null. */
  resultType: string | null;
  /** Validates `params` (which may be undefined when params are optional). */
  validateParams: Validator;
  /** Validates a result (requests only). */
  validateResult: Validator | null;
  /** The capability that must have been declared for it to be sent or accepted. */
  capability: CapabilityRef | null;
  /** May carry a `task` (2025-11-25) / be answered with a task (tasks extension). */
  taskAugmentable: boolean;
  /** 2026-07-28: may be answered with `resultType: "input_required"`. */
  inputRequired: boolean;
}

/** The method tables, one per schema version, keyed by method name. */
export const METHODS: Record<SchemaVersion, Readonly<Record<string, MethodSpec>>> = {} as never;

/** The spec of `method` in `version`, or undefined when that version has no such method. */
export function methodSpec(version: ProtocolVersion, method: string): MethodSpec | undefined {
  throw new Error("stub");
}

/** True when `capabilities` declares `path` (dotted): each segment present and not false/null. */
export function hasCapability(capabilities: unknown, path: string): boolean {
  throw new Error("stub");
}
