/**
 * Elicitation forms checked at both ends, for the server and client APIs.
 *
 * Spec: 2025-11-25 `client/elicitation` ("Form Mode Security"): "Clients SHOULD validate
 * all responses against the provided schema"; "Servers SHOULD validate received data
 * matches the requested schema"; and "Requested Schema": a form's schema is the
 * restricted subset. The checks themselves are `src/schema/elicitation.ts`; this says
 * what an API answers when one fails. A schema outside the subset is the sender's
 * invalid params (`-32602`, before it goes out on the server, on receipt on the client).
 * Content that does not match is the answering side's fault: the client's handler
 * produced it (the server gets `-32603` instead of the content), or the client sent it
 * (the server's `elicit` rejects with `-32603`, as for any invalid result from the peer).
 * The APIs take the checks as an option (`elicitationForms`), which `McpServer` and
 * `McpClient` fill with the built-in ones: a bundle of the core classes alone leaves the
 * 9 KB of form grammar and format scanners out.
 */
import { McpError } from "../driver/endpoint.js";
import { ErrorCode } from "../jsonrpc/errors.js";
import type { JsonObject } from "../jsonrpc/types.js";
import type { ElicitationChecks } from "../schema/elicitation.js";
import { issuesError } from "../schema/json-type.js";

/** Throws `-32602` when a form's `requestedSchema` is outside the restricted elicitation subset. */
export function assertElicitParams(checks: ElicitationChecks, params: JsonObject | undefined): void {
  const issues = checks.params(params);
  if (issues !== null) throw new McpError({ code: ErrorCode.InvalidParams, ...issuesError("elicitation/create: requestedSchema is outside the restricted elicitation schema", issues) });
}

/** `result` when an accepted form's content matches the requested schema; else throws `-32603` naming whose content it was. */
export function checkedElicitResult<R extends JsonObject>(checks: ElicitationChecks, params: JsonObject | undefined, result: R, who: string): R {
  const issues = checks.result(params, result);
  if (issues !== null) throw new McpError({ code: ErrorCode.InternalError, ...issuesError(`${who} does not match the requested schema`, issues) });
  return result;
}

/**
 * `result` without `content` unless it accepts a form: the schema's content is "only
 * present when action is "accept" and mode was "form"" (2025-11-25 `client/elicitation`;
 * "For URL mode: The `content` field is omitted"). In URL mode the user typed nothing into
 * the client; a decline or cancel is the user refusing to hand over what the form holds.
 * Either way content would only give the peer data it was never given: dropped rather than
 * failing the user's answer, by the client before it goes out and by the server on receipt
 * (where a typed `ctx.elicit` would otherwise hand its handler unparsed content as parsed).
 */
export function withoutUnaskedContent<R extends JsonObject>(params: JsonObject | undefined, result: R): R {
  if (typeof result !== "object" || result === null || !Object.hasOwn(result, "content")) return result;
  const form = params?.mode === undefined || params.mode === "form";
  if (form && result.action === "accept") return result;
  const { content: _, ...rest } = result;
  return rest as R;
}
