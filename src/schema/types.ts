/**
 * Validators for every type of every MCP schema version, by name: what the schema entry
 * point exports as `validate`, `validatorFor` and `typeNames`.
 *
 * Spec: `schema.json` of 2025-03-26, 2025-06-18, 2025-11-25 and 2026-07-28 (see
 * validate.ts, which interprets the tables).
 *
 * Theory of operation. The generator splits the node table in two. validate.ts carries
 * what the kernel validates (the params and results of every method, which the method
 * tables look up); generated/full.ts carries the rest (JSON-RPC envelopes, the message
 * unions, types no method names) and every type name. Only this module imports it, so a
 * bundle of the kernel alone leaves it out; here it is decoded on first use, so loading
 * the module costs nothing until a lookup.
 */
import type { ProtocolVersion } from "../model/versions.js";
import type { TypeTable, ValidationResult, Validator } from "./validate.js";
import { addNodes, typeNamesIn, typeTable, validateIn, validatorIn } from "./validate.js";
import { ALL_TYPE_NAMES, ALL_TYPES, EXTRA_NODES } from "./generated/full.js";

let table: TypeTable | undefined;

/** Every type of every version; the rest of the nodes are decoded on the first call. */
function full(): TypeTable {
  if (table === undefined) {
    addNodes(EXTRA_NODES);
    table = typeTable(ALL_TYPE_NAMES, ALL_TYPES);
  }
  return table;
}

/** The validator of schema type `typeName` (e.g. "CallToolResult") in `version`, if it exists. */
export function validatorFor(version: ProtocolVersion, typeName: string): Validator | undefined {
  return validatorIn(full(), version, typeName);
}

/** Validates `value` as `typeName` of `version`; an unknown type name is an issue at "". */
export function validate<T = unknown>(version: ProtocolVersion, typeName: string, value: unknown): ValidationResult<T> {
  return validateIn<T>(full(), version, typeName, value);
}

/** Every type name the schema of `version` defines. */
export function typeNames(version: ProtocolVersion): string[] {
  return typeNamesIn(full(), version);
}
