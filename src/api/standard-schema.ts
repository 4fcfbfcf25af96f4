/**
 * Standard Schema: a validation library's schema object (zod 4.2+, valibot, ArkType and
 * others) as a tool's `inputSchema` or `outputSchema`, so an application keeps the schemas
 * it has and its handler gets what the library parsed.
 *
 * Spec: none of MCP's (2025-11-25 `server/tools` lists tools with JSON Schema). The
 * interfaces are those of standardschema.dev: `~standard.validate` (Standard Schema V1)
 * and `~standard.jsonSchema` (Standard JSON Schema V1), declared here from that
 * specification so that nothing is imported.
 *
 * Theory of operation. At registration the library converts the schema to JSON Schema
 * 2020-12, which is what `tools/list` sends and what the HTTP transport reads
 * `x-mcp-header` from; a schema the library cannot convert is refused there, as a JSON
 * Schema that does not compile is. On a call the library validates (its own rules,
 * refinements included, not our JSON Schema validator's reading of its conversion), and
 * the handler gets the library's output (defaults filled in, transforms applied). Its
 * issues become the same `Issue`s (RFC 6901 pointers) a JSON Schema failure gives.
 */
import { thrownMessage } from "../jsonrpc/errors.js";
import type { Issue } from "../schema/validate.js";

/** A schema object of a Standard Schema library that can also write itself as JSON Schema. */
export interface StandardSchema<Input = unknown, Output = Input> {
  readonly "~standard": StandardSchemaProps<Input, Output>;
}

/** The `~standard` property (Standard Schema V1 with Standard JSON Schema V1). */
export interface StandardSchemaProps<Input = unknown, Output = Input> {
  readonly version: 1;
  readonly vendor: string;
  readonly validate: (value: unknown, options?: { readonly libraryOptions?: Record<string, unknown> | undefined }) => StandardResult<Output> | Promise<StandardResult<Output>>;
  readonly jsonSchema: {
    readonly input: (options: StandardJsonSchemaOptions) => Record<string, unknown>;
    readonly output: (options: StandardJsonSchemaOptions) => Record<string, unknown>;
  };
  /** Types only: what the library takes and gives. */
  readonly types?: { readonly input: Input; readonly output: Output } | undefined;
}

/** What `~standard.jsonSchema.input` / `output` take. */
export interface StandardJsonSchemaOptions {
  readonly target: "draft-2020-12" | "draft-07" | "openapi-3.0" | (string & {});
  readonly libraryOptions?: Record<string, unknown> | undefined;
}

/** What `~standard.validate` gives: the parsed value, or the issues. */
export type StandardResult<Output> = { readonly value: Output; readonly issues?: undefined } | { readonly issues: readonly StandardIssue[] };

/** One problem a Standard Schema library found. */
export interface StandardIssue {
  readonly message: string;
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined;
}

/** The type a Standard Schema gives its valid values. */
export type StandardOutput<S extends StandardSchema> = NonNullable<S["~standard"]["types"]>["output"];

/** Whether `schema` is a Standard Schema (ArkType's are functions). */
export function isStandardSchema(schema: unknown): schema is StandardSchema {
  if ((typeof schema !== "object" && typeof schema !== "function") || schema === null) return false;
  const props = (schema as { "~standard"?: { validate?: unknown } })["~standard"];
  return typeof props === "object" && props !== null && typeof props.validate === "function";
}

/**
 * `schema` written as JSON Schema 2020-12 by its library, as plain JSON: the values it
 * takes (its input side), which is what a peer sees, for an `outputSchema` too: the
 * structured content sent is what the handler returned, not what the library would make of
 * it (a field with a default may be absent from it). Throws a TypeError naming `what` when
 * the library has no converter, cannot convert it, or writes no JSON object.
 */
export function jsonSchemaOf(schema: StandardSchema, what: string): Record<string, unknown> {
  const { vendor, jsonSchema } = schema["~standard"];
  const convert = (jsonSchema as Partial<StandardSchemaProps["jsonSchema"]> | undefined)?.input;
  if (typeof convert !== "function") {
    throw new TypeError(`${what} is a ${vendor} schema without a JSON Schema converter (~standard.jsonSchema, Standard JSON Schema V1): MCP lists tools with JSON Schema; use a version of ${vendor} that has one, or pass JSON Schema`);
  }
  let json: unknown;
  try {
    // Through JSON: the definition is sent as is and kept as plain data.
    json = JSON.parse(JSON.stringify(convert({ target: "draft-2020-12" })));
  } catch (e) {
    throw new TypeError(`${what}: ${vendor} cannot write it as JSON Schema 2020-12 (${thrownMessage(e)})`);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) throw new TypeError(`${what}: ${vendor} wrote it as ${JSON.stringify(json)}, not a JSON Schema object`);
  return inlinedRoot(json as Record<string, unknown>);
}

/**
 * `json` with a root that is only a reference to one of its own definitions replaced by that
 * definition: zod writes a schema given an id (`.meta({ id })`) as `{ $ref: "#/$defs/Id",
 * $defs: { Id: … } }`, which a prompt's arguments and an elicitation form (whose restricted
 * schema has no `$ref`) could not read. The definitions stay while anything refers to them.
 */
function inlinedRoot(json: Record<string, unknown>): Record<string, unknown> {
  const ref = typeof json.$ref === "string" ? /^#\/(\$defs|definitions)\/([^/~%]+)$/.exec(json.$ref) : null;
  if (ref === null) return json;
  const [, where, name] = ref;
  const defs = json[where] as Record<string, unknown> | undefined;
  const target = typeof defs === "object" && defs !== null && Object.hasOwn(defs, name) ? defs[name] : undefined;
  if (typeof target !== "object" || target === null || Array.isArray(target)) return json;
  const { $ref: _, ...rest } = json;
  const inlined: Record<string, unknown> = { ...rest, ...(target as Record<string, unknown>) };
  const { [where]: _defs, ...bare } = inlined;
  return JSON.stringify(bare).includes(`"#/${where}/`) ? inlined : bare;
}

/** A parse: the library's value, or the issues as the JSON Schema validator words them. */
export type Parsed = { value: unknown; issues?: undefined } | { issues: Issue[] };

/** A checker of values against `schema` by its library (maybe asynchronous, as `validate` may be). */
export function standardParser(schema: StandardSchema): (value: unknown) => Parsed | Promise<Parsed> {
  const props = schema["~standard"];
  const vendor = props.vendor;
  return (value) => {
    const result = props.validate(value) as unknown;
    return typeof (result as { then?: unknown } | null)?.then === "function" ? Promise.resolve(result).then((r) => parsed(r, vendor)) : parsed(result, vendor);
  };
}

/** A `validate` answer as a parse; one that is neither a value nor issues (a library's bug) is a failure, not the arguments `undefined`. */
function parsed(result: unknown, vendor: string): Parsed {
  const r = result as Partial<StandardResult<unknown>> | null;
  if (typeof r !== "object" || r === null || (r.issues === undefined && !Object.hasOwn(r, "value"))) throw new TypeError(`${vendor}'s validate returned neither a value nor issues`);
  if (r.issues === undefined) return { value: (r as { value: unknown }).value };
  const { issues } = r as { issues: readonly StandardIssue[] };
  // A library that failed without saying why still failed.
  if (!Array.isArray(issues) || issues.length === 0) return { issues: [{ path: "", reason: "invalid" }] };
  return { issues: issues.map((i: StandardIssue | null) => ({ path: pointer(i?.path), reason: String(i?.message ?? "invalid") })) };
}

/** An issue's path as an RFC 6901 pointer (`/items/0/name`), as the JSON Schema validator gives it. */
function pointer(path: StandardIssue["path"]): string {
  let p = "";
  for (const segment of Array.isArray(path) ? path : []) {
    const key = typeof segment === "object" && segment !== null ? segment.key : segment;
    p += "/" + String(typeof key === "symbol" ? key.description : key).replace(/~/g, "~0").replace(/\//g, "~1");
  }
  return p;
}
