/**
 * Completion for McpServer: `completion/complete` answered from the completers registered
 * for a prompt's arguments or a resource template's variables.
 *
 * Spec: 2025-11-25 `server/utilities/completion` (and the draft's, whose servers that
 * support completions MUST declare `completions`: the server does once a completer exists).
 *
 * Theory of operation. A completer is found by the reference and the argument's name: one
 * registered with `completion()` first, else the `complete` entry of the prompt or template
 * config. A reference to no prompt is `-32602` ("Error Handling"), as is one to neither a
 * template nor a static resource, whatever completers `completion()` registered for it (a
 * removed or disabled prompt or template completes no more); a known reference without a
 * completer for the argument completes to nothing. A response carries at most 100 values ({@link capValues}): a longer
 * answer is cut, saying there are more and how many matches there are.
 */
import { McpError, type RequestContext } from "../../driver/endpoint.js";
import { echoed, ErrorCode } from "../../jsonrpc/errors.js";
import type { JsonObject } from "../../jsonrpc/types.js";
import type { ElicitationChecks } from "../../schema/elicitation.js";
import { ServerContext, type RequestOrigin } from "../context.js";
import type { Completion } from "../types.js";
import { invalidParams } from "./errors.js";
import { shownValue } from "../option-names.js";

/** Completes one argument: the values for the text typed so far. */
export type Completer = (
  value: string,
  context: { arguments: Readonly<Record<string, string>>; ctx: ServerContext },
) => string[] | Completion | Promise<string[] | Completion>;

/** What completion reads of a registered prompt or resource template: the completers of its config. */
interface Completable {
  complete: Record<string, Completer> | undefined;
}

/** Most completion values one response may carry (`server/utilities/completion`). */
const MAX_COMPLETIONS = 100;

/** The key of a completer registered with `completion()`: reference type, name (or template) and argument, NUL-separated. */
export function completerKey(refType: string, name: string, argName: string): string {
  return `${refType}\u0000${name}\u0000${argName}`;
}

/**
 * Answers `completion/complete` from the completers registered with `completion()` (keyed
 * by reference type, name and argument) and those the `prompts` and `templates` were
 * registered with; `resources` are the static ones, a reference to which is no error.
 */
export async function complete(
  completers: ReadonlyMap<string, Completer>, prompts: ReadonlyMap<string, Completable>, templates: ReadonlyMap<string, Completable>,
  resources: ReadonlyMap<string, unknown>, forms: ElicitationChecks | undefined, p: JsonObject, rc: RequestContext, origin: RequestOrigin | undefined,
): Promise<JsonObject> {
  const ref = p.ref as { type: string; name?: string; uri?: string };
  const argument = p.argument as { name: string; value: string };
  const name = ref.type === "ref/prompt" ? ref.name! : ref.uri!;
  // completion.mdx "Error Handling": an invalid prompt name is -32602. The reference is
  // looked up before any completer, as one registered with `completion()` outlives its prompt
  // or template: a removed or disabled one is unknown (README: a call gets the unknown-name error).
  let own: Completer | undefined;
  if (ref.type === "ref/prompt") {
    const prompt = prompts.get(name);
    if (prompt === undefined) throw invalidParams(`Unknown prompt: ${echoed(name)}`, { name });
    own = ownCompleter(prompt, argument.name);
  } else {
    const template = templates.get(name);
    if (template === undefined && !resources.has(name)) throw invalidParams(`Unknown resource template: ${echoed(name)}`, { uri: name });
    own = template === undefined ? undefined : ownCompleter(template, argument.name);
  }
  const completer = completers.get(completerKey(ref.type, name, argument.name)) ?? own;
  if (completer === undefined) return { completion: { values: [] } };
  const answer = (await completer(argument.value, { arguments: contextArguments(p.context), ctx: new ServerContext(rc, p._meta as JsonObject | undefined, undefined, forms, origin) })) as string[] | Completion | undefined;
  // Neither form (undefined, a lone string): read as one, it failed with the engine's
  // TypeError text ("Cannot read properties of undefined"), which told the client nothing.
  if (!Array.isArray(answer) && !(typeof answer === "object" && answer !== null && Array.isArray(answer.values))) {
    throw new McpError({ code: ErrorCode.InternalError, message: `the completer of argument ${echoed(argument.name)} of ${echoed(name)} returned neither a list of values nor { values }` });
  }
  return { completion: Array.isArray(answer) ? capValues(answer) : answer.values.length > MAX_COMPLETIONS ? { ...answer, ...capValues(answer.values, answer.total) } : answer };
}

/**
 * The request's `context.arguments` when it is what 2025-06-18 made it, argument names to
 * string values; else none. Schema validation checks it from 2025-06-18 on, but 2025-03-26
 * and 2024-11-05 have no `context`, so a request of theirs carries whatever it likes
 * there, unchecked: a string, an array, numbers, which reached a completer typed to get
 * strings (completion.mdx Security: implementations MUST validate all completion inputs).
 */
function contextArguments(context: unknown): Record<string, string> {
  const args = typeof context === "object" && context !== null ? (context as { arguments?: unknown }).arguments : undefined;
  if (typeof args !== "object" || args === null || Array.isArray(args)) return {};
  for (const value of Object.values(args)) if (typeof value !== "string") return {};
  return args as Record<string, string>;
}

/**
 * Throws, naming `what`, when a config's `complete` is not an object of completer functions
 * by argument name (a list of values given instead, say): it would be accepted, declare
 * `completions`, and fail every `completion/complete` for that argument with `-32603`.
 */
export function refuseCompleters(what: string, complete: unknown): void {
  if (complete === undefined) return;
  if (typeof complete !== "object" || complete === null || Array.isArray(complete)) throw new TypeError(`${what}: complete must be an object of completer functions by argument name (got ${shownValue(complete)})`);
  for (const [name, fn] of Object.entries(complete)) {
    if (typeof fn !== "function") throw new TypeError(`${what}: complete.${name} must be a completer function (got ${shownValue(fn)})`);
  }
}

/**
 * The completer `entry`'s config gives for argument `name`: an own entry only, as the name is
 * the client's (`constructor` or `__proto__` would otherwise find Object.prototype's members,
 * called as completers, each request failing with -32603 instead of completing to nothing).
 */
function ownCompleter(entry: Completable, name: string): Completer | undefined {
  const complete = entry.complete;
  return complete !== undefined && Object.hasOwn(complete, name) ? complete[name] : undefined;
}

/**
 * At most 100 values, saying there are more when cut, and how many matches there are:
 * the completer's own `total` when it gave one (it may know of more than it returned),
 * else the number of values it returned.
 */
function capValues(values: string[], total?: number): Completion {
  if (values.length <= MAX_COMPLETIONS) return { values };
  return { values: values.slice(0, MAX_COMPLETIONS), total: total ?? values.length, hasMore: true };
}
