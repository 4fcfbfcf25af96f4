/**
 * Prompts of McpServer: the definition a registration adds to the registry, and
 * `prompts/get`.
 *
 * Spec: 2025-11-25 `server/prompts`.
 *
 * Theory of operation. Registering a prompt builds its `Prompt` definition once (what
 * `prompts/list` returns for it, refused when a served version could not list it, see
 * `lists.ts`) and the names of its required arguments. `prompts/get` finds the prompt by
 * name and checks that every required argument is there before the getter runs: an unknown
 * prompt or a missing argument is `-32602` ("Error Handling"). The arguments may instead
 * be declared by a validation library's schema of an object (`argsSchema`,
 * `standard-schema.ts`): listed as its properties (their `description`s, the `required`
 * ones), checked by the library (its refusal is `-32602` too, "invalid arguments"), the
 * getter given its parsed value. The getter may answer
 * `input_required` (MRTR, `mrtr.ts`), which the request layer takes from there.
 */
import type { RequestContext } from "../../driver/endpoint.js";
import { echoed } from "../../jsonrpc/errors.js";
import type { JsonObject } from "../../jsonrpc/types.js";
import type { ProtocolVersion } from "../../model/versions.js";
import type { ElicitationChecks } from "../../schema/elicitation.js";
import { inputRetryOf, type InputRequiredResult } from "../mrtr.js";
import { ServerContext, withPendingInput, type RequestOrigin } from "../context.js";
import type { Icon } from "../../session/types.js";
import type { GetPromptResult, Meta, Prompt, PromptArgument } from "../types.js";
import { refuseCompleters, type Completer } from "./completion.js";
import { invalidParams, refuseMisuse } from "./errors.js";
import { knownNames } from "../option-names.js";
import { assignDefined, refuseUnlistable } from "./lists.js";
import { isThenable } from "../../driver/listener.js";
import { issuesError } from "../../schema/json-type.js";
import { isStandardSchema, jsonSchemaOf, standardParser, type Parsed, type StandardSchema } from "../standard-schema.js";

/**
 * Builds a prompt's messages from its arguments. `A` is their type: `McpServer.prompt` reads
 * it from the `arguments` literal ({@link PromptArgumentsOf}); every required one is there,
 * as `prompts/get` refuses a request without it before the getter runs. With an
 * `argsSchema`, it is the library's output type.
 */
export type PromptGetter<A extends object = Record<string, string>> = (
  args: A,
  ctx: ServerContext,
) => GetPromptResult | InputRequiredResult | Promise<GetPromptResult | InputRequiredResult>;

/** Describes a prompt, with completers for its arguments. */
export interface PromptConfig {
  title?: string | undefined;
  description?: string | undefined;
  arguments?: PromptArgument[] | undefined;
  /**
   * Instead of `arguments`: a validation library's schema of an object of strings (a
   * Standard Schema with a JSON Schema converter, such as zod 4.2+'s `z.object(…)`), whose
   * properties are the arguments.
   */
  argsSchema?: StandardSchema | undefined;
  icons?: Icon[] | undefined;
  _meta?: Meta | undefined;
  complete?: Record<string, Completer> | undefined;
}

/**
 * A {@link PromptConfig} whose `arguments` are the literal list `L`, for `McpServer.prompt`
 * to read the arguments' type from (readonly, so an `as const` list is taken too, and
 * TypeScript 5.0–5.2 keep the literal).
 */
export interface PromptConfigOf<L extends readonly PromptArgument[]> extends Omit<PromptConfig, "arguments"> {
  arguments: L;
}

/** A {@link PromptConfig} whose `argsSchema` is `S`, for `McpServer.prompt` to read the arguments' type from. */
export interface PromptConfigWith<S extends StandardSchema> extends Omit<PromptConfig, "arguments"> {
  argsSchema: S;
}

/** The fields of a {@link PromptConfig}, for its misspelling check. */
const PROMPT_CONFIG_NAMES = /* @__PURE__ */ knownNames<PromptConfig>()(["title", "description", "arguments", "argsSchema", "icons", "_meta", "complete"]);

/** A registered prompt. */
export interface PromptEntry {
  seq: number;
  def: Prompt;
  required: string[];
  /** An `argsSchema`'s parse, whose value the getter gets. */
  parseArgs: ((value: unknown) => Parsed | Promise<Parsed>) | null;
  getter: PromptGetter;
  complete: Record<string, Completer> | undefined;
}

/**
 * The entry `prompt(name, config, getter)` adds to `prompts`, with the sequence number
 * `nextSeq` draws. Throws when the config or getter is no such thing, the name is taken,
 * or a version of `versions` (the sessions' option) could not list the definition.
 */
export function promptEntry(
  prompts: ReadonlyMap<string, PromptEntry>, versions: readonly ProtocolVersion[] | undefined, nextSeq: () => number,
  name: string, config: PromptConfig, getter: PromptGetter,
): PromptEntry {
  refuseMisuse(`prompt ${JSON.stringify(name)}`, config, getter, "getter", PROMPT_CONFIG_NAMES);
  refuseCompleters(`prompt ${JSON.stringify(name)}`, config.complete);
  if (prompts.has(name)) throw new TypeError(`prompt ${JSON.stringify(name)} is already registered`);
  const { argsSchema, ...rest } = config;
  const def: Prompt = { name };
  assignDefined(def, rest);
  if (argsSchema !== undefined) {
    if (config.arguments !== undefined) throw new TypeError(`prompt ${JSON.stringify(name)}: give arguments or argsSchema, not both`);
    if (!isStandardSchema(argsSchema)) throw new TypeError(`prompt ${JSON.stringify(name)} argsSchema must be a Standard Schema (such as zod's z.object(…)); a list of arguments goes in arguments`);
    def.arguments = argumentsOf(jsonSchemaOf(argsSchema, `prompt ${name} argsSchema`), name);
  }
  refuseUnlistable(versions, `prompt ${JSON.stringify(name)}`, "prompts/list", "prompts", def);
  const required: string[] = [];
  for (const a of def.arguments ?? []) if (a.required === true) required.push(a.name);
  return { seq: nextSeq(), def, required, parseArgs: argsSchema === undefined ? null : standardParser(argsSchema), getter, complete: config.complete };
}

/** The arguments an `argsSchema` declares: its root object's properties, with their descriptions, `required` as it lists them. */
function argumentsOf(json: Record<string, unknown>, name: string): PromptArgument[] {
  const { type, properties = {}, required = [] } = json as { type?: unknown; properties?: unknown; required?: unknown };
  if (type !== "object" || typeof properties !== "object" || properties === null || !Array.isArray(required)) {
    throw new TypeError(`prompt ${JSON.stringify(name)} argsSchema must describe an object of named arguments; its JSON Schema is ${JSON.stringify(json).slice(0, 200)}`);
  }
  return Object.entries(properties).map(([arg, schema]) => {
    const a: PromptArgument = { name: arg };
    const description = (schema as { description?: unknown } | null)?.description;
    if (typeof description === "string") a.description = description;
    if (required.includes(arg)) a.required = true;
    return a;
  });
}

/** Answers `prompts/get` (a round of it, under MRTR) with what the prompt's getter builds. */
export async function getPrompt(
  prompts: ReadonlyMap<string, PromptEntry>, forms: ElicitationChecks | undefined,
  p: JsonObject, rc: RequestContext, origin: RequestOrigin | undefined,
): Promise<JsonObject> {
  const name = p.name as string;
  const entry = prompts.get(name);
  // prompts.mdx "Error Handling": invalid prompt name and missing required arguments are -32602.
  if (entry === undefined) throw invalidParams(`Unknown prompt: ${echoed(name)}`, { name });
  const args = (p.arguments as Record<string, string> | undefined) ?? {};
  for (const a of entry.required) if (!Object.hasOwn(args, a)) throw invalidParams(`Missing required argument: ${a}`, { argument: a });
  let parsed: Parsed | Promise<Parsed> = { value: args };
  if (entry.parseArgs !== null) parsed = entry.parseArgs(args);
  if (isThenable(parsed)) parsed = await parsed;
  if (parsed.issues !== undefined) {
    const { message, data } = issuesError(`Invalid arguments for prompt ${name}`, parsed.issues);
    throw invalidParams(message, data);
  }
  const ctx = new ServerContext(rc, p._meta as JsonObject | undefined, inputRetryOf(p), forms, origin);
  return withPendingInput(ctx, () => entry.getter(parsed.value as Record<string, string>, ctx));
}
