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
 * prompt or a missing argument is `-32602` ("Error Handling"). The getter may answer
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
import type { Completer } from "./completion.js";
import { invalidParams, refuseMisuse } from "./errors.js";
import { knownNames } from "../option-names.js";
import { assignDefined, refuseUnlistable } from "./lists.js";

/**
 * Builds a prompt's messages from its arguments. `A` is their type: `McpServer.prompt` reads
 * it from the `arguments` literal ({@link PromptArgumentsOf}); every required one is there,
 * as `prompts/get` refuses a request without it before the getter runs.
 */
export type PromptGetter<A extends Record<string, string> = Record<string, string>> = (
  args: A,
  ctx: ServerContext,
) => GetPromptResult | InputRequiredResult | Promise<GetPromptResult | InputRequiredResult>;

/** Describes a prompt, with completers for its arguments. */
export interface PromptConfig {
  title?: string | undefined;
  description?: string | undefined;
  arguments?: PromptArgument[] | undefined;
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

/** The fields of a {@link PromptConfig}, for its misspelling check. */
const PROMPT_CONFIG_NAMES = /* @__PURE__ */ knownNames<PromptConfig>()(["title", "description", "arguments", "icons", "_meta", "complete"]);

/** A registered prompt. */
export interface PromptEntry {
  seq: number;
  def: Prompt;
  required: string[];
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
  if (prompts.has(name)) throw new TypeError(`prompt ${JSON.stringify(name)} is already registered`);
  const def: Prompt = { name };
  assignDefined(def, config);
  refuseUnlistable(versions, `prompt ${JSON.stringify(name)}`, "prompts/list", "prompts", def);
  const required: string[] = [];
  for (const a of config.arguments ?? []) if (a.required === true) required.push(a.name);
  return { seq: nextSeq(), def, required, getter, complete: config.complete };
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
  const ctx = new ServerContext(rc, p._meta as JsonObject | undefined, inputRetryOf(p), forms, origin);
  return withPendingInput(ctx, () => entry.getter(args, ctx));
}
