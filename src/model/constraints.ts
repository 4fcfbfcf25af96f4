/**
 * Rules of a method's params or result that the schema's types cannot express, checked
 * wherever its validators run: by a sender before it sends (`validateOutgoing`) and by
 * the receiver on arrival (`-32602` for a request's params, `-32603` for a result).
 *
 * Spec (2025-11-25 and draft):
 * - `client/sampling` ("Message Content Constraints"): "When a user message contains tool
 *   results (type: "tool_result"), it MUST contain ONLY tool results", and "every
 *   assistant message containing ToolUseContent blocks MUST be followed by a user message
 *   that consists entirely of ToolResultContent blocks, with each tool use (e.g. with
 *   id: $id) matched by a corresponding tool result (with toolUseId: $id), before any
 *   other message"; and of `ToolResultContent.toolUseId` (`schema.ts`): "This MUST match
 *   the ID from a previous ToolUseContent" (a result answering no earlier tool use, which
 *   provider APIs refuse too).
 * - `client/roots` ("Root"): a root's `uri` "MUST be a `file://` URI in the current
 *   specification"; every version says so (the `Root` of the 2025-03-26 and 2025-06-18
 *   `schema.ts`: it "*must* start with file:// for now"), so every version is held to it.
 * - `client/sampling` ("Tool Choice Modes"): with `toolChoice` `{mode: "none"}` the "Model
 *   MUST NOT use any tools", nor can it use any when the request offered none: a rule of a
 *   result against its request's params ({@link samplingAnswerIssues}).
 */
import type { Issue, Validator } from "../schema/validate.js";
import { capIssues } from "../schema/json-type.js";
import type { SchemaVersion } from "./versions.js";

type Block = { type?: unknown; id?: unknown; toolUseId?: unknown };

/** A message's content as a list of blocks (it may be one block or an array). */
function blocksOf(message: unknown): Block[] {
  const content = (message as { content?: unknown } | null)?.content;
  return (Array.isArray(content) ? content : [content]).filter((b): b is Block => typeof b === "object" && b !== null);
}

/** `sampling/createMessage` params: tool results alone in their message, each answering an earlier tool use, every tool use answered by the next message. */
function samplingMessages(params: unknown): Issue[] | null {
  const messages = (params as { messages?: unknown } | null)?.messages;
  if (!Array.isArray(messages)) return null;
  const issues: Issue[] = [];
  // The ids of the tool uses of the messages before this one: a tool result answers one of them.
  const used = new Set<unknown>();
  for (let i = 0; i < messages.length; i++) {
    const role = (messages[i] as { role?: unknown } | null)?.role;
    const blocks = blocksOf(messages[i]);
    const results = blocks.filter((b) => b.type === "tool_result");
    if (role === "user" && results.length > 0 && results.length < blocks.length) {
      issues.push({ path: `/messages/${i}/content`, reason: "a user message with tool results must contain only tool results" });
    }
    const content = (messages[i] as { content?: unknown } | null)?.content;
    blocks.forEach((b, j) => {
      // The block's path, not its id, names it: the id may be long, and the issues are repeated in the -32602.
      if (b.type === "tool_result" && !used.has(b.toolUseId)) issues.push({ path: Array.isArray(content) ? `/messages/${i}/content/${j}` : `/messages/${i}/content`, reason: "a tool result whose toolUseId matches no earlier tool use" });
    });
    for (const b of blocks) if (b.type === "tool_use") used.add(b.id);
    const uses = role === "assistant" ? blocks.filter((b) => b.type === "tool_use") : [];
    if (uses.length === 0) continue;
    const next = messages[i + 1] as { role?: unknown } | undefined;
    const answers = next === undefined ? [] : blocksOf(next);
    if (next?.role !== "user" || answers.length === 0 || answers.some((b) => b.type !== "tool_result")) {
      issues.push({ path: `/messages/${i + 1}`, reason: "a tool use must be followed by a user message of tool results only" });
      continue;
    }
    const answered = new Set(answers.map((b) => b.toolUseId));
    for (const use of uses) if (!answered.has(use.id)) issues.push({ path: `/messages/${i + 1}`, reason: `no tool result for tool use ${JSON.stringify(use.id)}` });
  }
  return issues.length > 0 ? issues : null;
}

/**
 * A `sampling/createMessage` result's tool uses the request did not allow: none offered
 * (no `tools`, or an empty list), or `toolChoice` `none`, which servers pass on a tool
 * loop's last round to force a final answer. Null when there are none.
 */
export function samplingAnswerIssues(params: unknown, result: unknown): Issue[] | null {
  const p = params as { tools?: unknown; toolChoice?: { mode?: unknown } } | null;
  const allowed = Array.isArray(p?.tools) && p.tools.length > 0 && p.toolChoice?.mode !== "none";
  if (allowed) return null;
  const content = (result as { content?: unknown } | null)?.content;
  const blocks = Array.isArray(content) ? content : [content];
  const why = Array.isArray(p?.tools) && p.tools.length > 0 ? 'the request\'s toolChoice is "none"' : "the request offered no tools";
  const issues: Issue[] = [];
  blocks.forEach((b, i) => {
    if ((b as Block | null)?.type === "tool_use") issues.push({ path: Array.isArray(content) ? `/content/${i}` : "/content", reason: `a tool use, but ${why}` });
  });
  return issues.length > 0 ? capIssues(issues) : null;
}

/** `roots/list` result: every root a `file://` URI. */
function fileRoots(result: unknown): Issue[] | null {
  const roots = (result as { roots?: unknown } | null)?.roots;
  if (!Array.isArray(roots)) return null;
  const issues: Issue[] = [];
  roots.forEach((r, i) => {
    const uri = (r as { uri?: unknown } | null)?.uri;
    if (typeof uri === "string" && !uri.startsWith("file://")) issues.push({ path: `/roots/${i}/uri`, reason: "must be a file:// URI" });
  });
  return issues.length > 0 ? issues : null;
}

/**
 * 2024-11-05 content: no audio. Its `CallToolResult.content` and `PromptMessage.content` are
 * text, image or an embedded resource, a `SamplingMessage`'s text or image; `AudioContent`
 * arrived in 2025-03-26 (changelog: "Added support for audio data"), whose schema stands in
 * for 2024-11-05's, so this is checked on top of it: audio sent to a 2024-11-05 peer would be
 * a block of no type its schema knows, as a `resource_link` is to a 2025-03-26 one.
 * `at` names where a message of `method` holds its content: `content` (a list in a tool
 * result, one block in a sampling result), or each of `messages`' `content`.
 */
function noAudio(at: "content" | "messages"): Validator {
  return (value) => {
    const issues: Issue[] = [];
    const check = (block: unknown, path: string): void => {
      if ((block as Block | null)?.type === "audio") issues.push({ path: `${path}/type`, reason: 'audio content is not defined in 2024-11-05 (added in 2025-03-26)' });
    };
    const each = (content: unknown, path: string): void => {
      if (Array.isArray(content)) content.forEach((b, i) => check(b, `${path}/${i}`));
      else check(content, path);
    };
    const v = value as { content?: unknown; messages?: unknown } | null;
    if (at === "content") each(v?.content, "/content");
    else if (Array.isArray(v?.messages)) v.messages.forEach((m, i) => each((m as { content?: unknown } | null)?.content, `/messages/${i}/content`));
    return issues.length > 0 ? capIssues(issues) : null;
  };
}

/**
 * The 2024-11-05 checks on top of the 2025-03-26 validators of `method` (audio content, see
 * {@link noAudio}): its params' and its result's, each undefined when there is none.
 */
export function rules2024(method: string): { params?: Validator; result?: Validator } | undefined {
  switch (method) {
    case "tools/call":
      return { result: noAudio("content") };
    case "prompts/get":
      return { result: noAudio("messages") };
    case "sampling/createMessage":
      return { params: noAudio("messages"), result: noAudio("content") };
    default:
      return undefined;
  }
}

const SINCE_2025_11_25: readonly SchemaVersion[] = ["2025-11-25", "2026-07-28"];

/** Extra checks of params, by method, for the versions whose pages state them. */
export function paramsRule(version: SchemaVersion, method: string): Validator | undefined {
  return method === "sampling/createMessage" && SINCE_2025_11_25.includes(version) ? samplingMessages : undefined;
}

/** Extra checks of results, by method (the file:// roots of every version). */
export function resultRule(_version: SchemaVersion, method: string): Validator | undefined {
  return method === "roots/list" ? fileRoots : undefined;
}

/**
 * `validate`, then `rule` on what passed it. The rule's issues are capped as every
 * validator's are (MAX_ISSUES, then one saying how many more): it finds one per message
 * or root, and the `-32602` / `-32603` repeats each in its message and its data, so an
 * uncapped list made the error reply larger than the request it answers.
 */
export function withRule(validate: Validator, rule: Validator | undefined): Validator {
  return rule === undefined ? validate : (value) => validate(value) ?? capRule(rule(value));
}

function capRule(issues: Issue[] | null): Issue[] | null {
  return issues === null ? null : capIssues(issues);
}
