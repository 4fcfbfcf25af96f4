/**
 * Resources of McpServer: the definitions registrations add (static resources and URI
 * templates), `resources/list` across both, and `resources/read`.
 *
 * Spec: 2025-11-25 `server/resources` (and the draft's `server/resources` for the modern
 * era's resource-not-found code).
 *
 * Theory of operation. A static resource is registered at its URI; a template (RFC 6570,
 * `uri-template.ts`) names a family of them, and is refused at registration when no URI
 * could be matched back to its variables. `resources/read` looks for the URI among the
 * static resources, then tries the templates in registration order; the first that
 * matches reads it. No match, or a reader answering `undefined`, is resource-not-found:
 * `-32002` in the legacy versions, `-32602` from 2026-07-28 ({@link resourceNotFoundCode}),
 * never an empty `contents`. `resources/list` lists the static resources, then what each
 * template's own `list` names, paginated across both (`pageThenListed` of
 * `pagination.ts`); what a `list` answers is the server's to get right, so an invalid
 * resource fails the request with `-32603` naming the field. Templates themselves are
 * listed by `resources/templates/list`, like any registry (`lists.ts`).
 */
import { McpError, type RequestContext } from "../../driver/endpoint.js";
import { ErrorCode } from "../../jsonrpc/errors.js";
import type { JsonObject } from "../../jsonrpc/types.js";
import { isModernVersion, isProtocolVersion, LATEST_LEGACY_VERSION, type ProtocolVersion } from "../../model/versions.js";
import type { ElicitationChecks } from "../../schema/elicitation.js";
import { issuesError } from "../../schema/json-type.js";
import { isObject } from "../connection.js";
import { ServerContext, withPendingInput, type RequestOrigin } from "../context.js";
import { isThenable } from "../../driver/listener.js";
import { inputRetryOf, type InputRequiredResult } from "../mrtr.js";
import { pageThenListed, type Page } from "../pagination.js";
import type { Icon } from "../../session/types.js";
import type { Meta, ReadResourceResult, Resource, ResourceTemplate } from "../types.js";
import { parseUriTemplate, uriMatcher, type UriTemplate } from "../uri-template.js";
import { refuseCompleters, type Completer } from "./completion.js";
import { refuseMisuse } from "./errors.js";
import { knownNames } from "../option-names.js";
import { assignDefined, defOf, itemIssues, pageResult, refuseUnlistable } from "./lists.js";

/** Reads a static resource; `undefined` means it does not exist (after all). */
export type ResourceReader = (uri: string, ctx: ServerContext) => ReadResult | Promise<ReadResult>;

/** What a resource reader answers: the contents, `undefined` for no such resource, or `input_required`. */
export type ReadResult = ReadResourceResult | InputRequiredResult | undefined;

/** Reads a resource of a template; `undefined` means no such resource. */
export type TemplateReader = (
  uri: string,
  variables: Readonly<Record<string, string>>,
  ctx: ServerContext,
) => ReadResult | Promise<ReadResult>;

/** Describes a resource (everything of `Resource` but the URI). */
export interface ResourceConfig {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  mimeType?: string | undefined;
  size?: number | undefined;
  annotations?: Resource["annotations"] | undefined;
  icons?: Icon[] | undefined;
  _meta?: Meta | undefined;
}

/** The fields of a {@link ResourceConfig} and of a {@link ResourceTemplateConfig}, for their misspelling checks. */
const RESOURCE_CONFIG_NAMES = /* @__PURE__ */ knownNames<ResourceConfig>()(["name", "title", "description", "mimeType", "size", "annotations", "icons", "_meta"]);
const TEMPLATE_CONFIG_NAMES = /* @__PURE__ */ knownNames<ResourceTemplateConfig>()(["name", "title", "description", "mimeType", "annotations", "icons", "_meta", "complete", "list"]);

/**
 * Names the concrete resources of a template, listed in `resources/list`; what it
 * answers is checked like a registered resource's definition.
 */
export type ResourceLister = (ctx: ServerContext) => Resource[] | Promise<Resource[]>;

/** Describes a resource template, with completers for its variables. */
export interface ResourceTemplateConfig extends Omit<ResourceConfig, "size"> {
  complete?: Record<string, Completer> | undefined;
  /**
   * The resources of this template to list: `resources/list` lists them after the
   * static resources, template by template in registration order, paginated with them.
   * Called for each `resources/list` page that reaches this template. A resource that
   * is not a valid `Resource` fails the request with `-32603` naming the field; a throw
   * fails it as a reader's throw fails `resources/read`. Not sent in
   * `resources/templates/list`.
   */
  list?: ResourceLister | undefined;
}

/**
 * The JSON-RPC error code for "resource not found" under `version`: `-32002` in the
 * legacy versions (2025-11-25 `server/resources`), `-32602` from 2026-07-28 (draft
 * `server/resources`: servers MUST return `-32602`).
 */
export function resourceNotFoundCode(version: string | undefined): number {
  return isModernVersion(version) ? ErrorCode.InvalidParams : ErrorCode.ResourceNotFound;
}

/** A registered static resource. */
export interface ResourceEntry {
  seq: number;
  def: Resource;
  reader: ResourceReader;
}

/** A registered resource template. */
export interface TemplateEntry {
  seq: number;
  def: ResourceTemplate;
  template: UriTemplate;
  reader: TemplateReader;
  complete: Record<string, Completer> | undefined;
  list: ResourceLister | undefined;
}

/**
 * The entry `resource(uri, config, reader)` adds to `resources`, with the sequence number
 * `nextSeq` draws. Throws when the config or reader is no such thing, the URI is taken, or
 * a version of `versions` (the sessions' option) could not list the definition.
 */
export function resourceEntry(
  resources: ReadonlyMap<string, ResourceEntry>, versions: readonly ProtocolVersion[] | undefined, nextSeq: () => number,
  uri: string, config: ResourceConfig, reader: ResourceReader,
): ResourceEntry {
  refuseMisuse(`resource ${JSON.stringify(uri)}`, config, reader, "reader", RESOURCE_CONFIG_NAMES);
  if (resources.has(uri)) throw new TypeError(`resource ${JSON.stringify(uri)} is already registered`);
  const def: Resource = { uri, name: config.name };
  assignDefined(def, config);
  refuseUnlistable(versions, `resource ${JSON.stringify(uri)}`, "resources/list", "resources", def);
  return { seq: nextSeq(), def, reader };
}

/**
 * The entry `resourceTemplate(uriTemplate, config, reader)` adds to `templates`, with the
 * sequence number `nextSeq` draws. Throws when the config, reader or `list` is no such
 * thing, the template is taken, is not RFC 6570 or cannot be matched, or a version of
 * `versions` (the sessions' option) could not list the definition.
 */
export function templateEntry(
  templates: ReadonlyMap<string, TemplateEntry>, versions: readonly ProtocolVersion[] | undefined, nextSeq: () => number,
  uriTemplate: string, config: ResourceTemplateConfig, reader: TemplateReader,
): TemplateEntry {
  refuseMisuse(`resource template ${JSON.stringify(uriTemplate)}`, config, reader, "reader", TEMPLATE_CONFIG_NAMES);
  refuseCompleters(`resource template ${JSON.stringify(uriTemplate)}`, config.complete);
  if (config.list !== undefined && typeof config.list !== "function") throw new TypeError(`resource template ${JSON.stringify(uriTemplate)}: list must be a function returning the resources`);
  if (templates.has(uriTemplate)) throw new TypeError(`resource template ${JSON.stringify(uriTemplate)} is already registered`);
  const template = parseUriTemplate(uriTemplate);
  if (typeof template === "string") throw new TypeError(`invalid URI template ${JSON.stringify(uriTemplate)}: ${template}`);
  // A template that expands but cannot be matched would never reach its reader.
  if (template.unmatchable !== undefined) throw new TypeError(`URI template ${JSON.stringify(uriTemplate)} cannot be matched: ${template.unmatchable}`);
  const def: ResourceTemplate = { uriTemplate, name: config.name };
  const { list, ...wire } = config;
  assignDefined(def, wire);
  refuseUnlistable(versions, `resource template ${JSON.stringify(uriTemplate)}`, "resources/templates/list", "resourceTemplates", def);
  return { seq: nextSeq(), def, template, reader, complete: config.complete, list };
}

/** A `resources/list` result. */
const resourcesPage = (r: Page<Resource>): JsonObject => pageResult("resources", r);

/** What a template's `list` answered, when it is an array; the server's fault (-32603) otherwise. */
function listedArray(t: TemplateEntry, value: unknown): readonly unknown[] {
  if (Array.isArray(value)) return value;
  throw new McpError({ code: ErrorCode.InternalError, message: `resource template ${t.def.uriTemplate} list returned no array`, data: { uriTemplate: t.def.uriTemplate } });
}

/** A resource a template's `list` named, when it is a valid `Resource` in `version`; the server's fault (-32603) otherwise, naming the field. */
function checkedListed(t: TemplateEntry, value: unknown, version: ProtocolVersion): Resource {
  const issues = itemIssues(version, "resources/list", "resources", value);
  if (issues === null) return value as Resource;
  const uri = isObject(value) && typeof value.uri === "string" ? ` ${value.uri}` : "";
  const { message, data } = issuesError(`resource template ${t.def.uriTemplate} listed an invalid resource${uri}`, issues);
  throw new McpError({ code: ErrorCode.InternalError, message, data: { uriTemplate: t.def.uriTemplate, ...data } });
}

/**
 * A page of `resources/list`: the static resources, then what each template's `list`
 * names (2025-11-25 `server/resources` Listing Resources), paginated across both.
 * `listers` counts the templates with a `list` (none: the static resources alone,
 * answered synchronously).
 */
export function listResources(
  resources: ReadonlyMap<string, ResourceEntry>, templates: ReadonlyMap<string, TemplateEntry>, listers: number, pageSize: number,
  forms: ElicitationChecks | undefined, p: JsonObject, rc: RequestContext, origin: RequestOrigin | undefined,
): JsonObject | Promise<JsonObject> {
  let ctx: ServerContext | undefined;
  const r = pageThenListed(
    "resources",
    resources.values(),
    defOf,
    listers === 0 ? undefined : templates.values(),
    (t) => {
      if (t.list === undefined) return undefined;
      // With the session and principal, as every other handler's: a list is often one user's.
      const got = t.list((ctx ??= new ServerContext(rc, p._meta as JsonObject | undefined, undefined, forms, origin)));
      return isThenable(got) ? got.then((v) => listedArray(t, v)) : listedArray(t, got);
    },
    (t, value) => checkedListed(t, value, isProtocolVersion(rc.protocolVersion) ? rc.protocolVersion : LATEST_LEGACY_VERSION),
    p.cursor,
    pageSize,
  );
  return isThenable(r) ? r.then(resourcesPage) : resourcesPage(r);
}

/** Finds what `uri` names: a static resource, else the first template (in registration order) that matches. */
function locate(
  resources: ReadonlyMap<string, ResourceEntry>, templates: ReadonlyMap<string, TemplateEntry>, uri: string,
): { resource: ResourceEntry } | { template: TemplateEntry; variables: Record<string, string> } | undefined {
  const resource = resources.get(uri);
  if (resource !== undefined) return { resource };
  const match = uriMatcher(uri);
  for (const template of templates.values()) {
    const variables = match(template.template);
    if (variables !== null) return { template, variables };
  }
  return undefined;
}

function notFound(uri: string, rc: RequestContext): McpError {
  return new McpError({ code: resourceNotFoundCode(rc.protocolVersion), message: "Resource not found", data: { uri } });
}

/** Answers `resources/read` (a round of it, under MRTR) with what the resource's reader or its template's answers. */
export async function readResource(
  resources: ReadonlyMap<string, ResourceEntry>, templates: ReadonlyMap<string, TemplateEntry>, forms: ElicitationChecks | undefined,
  p: JsonObject, rc: RequestContext, origin: RequestOrigin | undefined,
): Promise<JsonObject> {
  const uri = p.uri as string;
  const found = locate(resources, templates, uri);
  if (found === undefined) throw notFound(uri, rc);
  const ctx = new ServerContext(rc, p._meta as JsonObject | undefined, inputRetryOf(p), forms, origin);
  const result = await withPendingInput(ctx, () => ("resource" in found ? found.resource.reader(uri, ctx) : found.template.reader(uri, found.variables, ctx)));
  // Draft server/resources: never an empty `contents` for a resource that does not exist.
  if (result === undefined || result === null) throw notFound(uri, rc);
  return result;
}
