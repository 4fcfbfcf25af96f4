/**
 * The list methods of McpServer's registries: the definition each item is listed with,
 * refused at registration when some served version could not list it, and one page of a
 * registry as a list result.
 *
 * Spec: 2025-11-25 `server/utilities/pagination`, and the "Listing" sections of
 * `server/tools`, `server/resources` and `server/prompts`.
 *
 * Theory of operation. Registering an item builds, once, the exact object its list method
 * returns for it ({@link assignDefined}: the defined fields of the config, so list entries
 * carry no `undefined` members), and checks it against that method's result schema in
 * every version the server serves ({@link refuseUnlistable}): a definition one version
 * refuses would fail each listing in that version with `-32603`, so it fails the
 * registration instead, naming the version and the field. Listing then allocates nothing
 * per item: a page is the registry's definitions in registration order from the cursor on
 * (`pagination.ts`), as the list result's field ({@link listPage}).
 */
import type { JsonObject } from "../../jsonrpc/types.js";
import { methodSpec } from "../../model/methods.js";
import { LEGACY_VERSIONS, type ProtocolVersion } from "../../model/versions.js";
import { issuesText } from "../../schema/json-schema.js";
import type { Issue } from "../../schema/validate.js";
import { page, type Page } from "../pagination.js";

/** What a registry entry lists as (one shared function: listing allocates no closure). */
export const defOf = <D>(entry: { def: D }): D => entry.def;

/** Copies the defined fields of `from` onto `to` (list entries carry no `undefined` members). */
export function assignDefined(to: Record<string, unknown>, from: object): void {
  for (const [k, v] of Object.entries(from)) if (v !== undefined && k !== "complete") to[k] = v;
}

/** A list result: one page as its `field`, with the cursor of the next when there is one. */
export function pageResult(field: string, r: Page<unknown>): JsonObject {
  return (r.nextCursor === undefined ? { [field]: r.items } : { [field]: r.items, nextCursor: r.nextCursor }) as JsonObject;
}

/** One page of a registry, as the `field` of a list result (`kind` names the list in its cursors). */
export function listPage<T extends { seq: number; def: JsonObject }>(field: string, kind: string, registry: Map<string, T>, p: JsonObject, pageSize: number): JsonObject {
  return pageResult(field, page(kind, registry.values(), p.cursor, pageSize, defOf));
}

/**
 * What the `version` schema finds wrong with `item` as an entry of a `method` result's
 * `field` list (`resources/list`, `resources`), paths relative to it; null when valid.
 * Checked inside a result (a lone `Resource`'s validator is not in the kernel's tables),
 * of which only the item's issues count: a 2026-07-28 result's own required fields
 * (`resultType`, `ttlMs`…) are the kernel's to stamp.
 */
export function itemIssues(version: ProtocolVersion, method: string, field: string, item: unknown): Issue[] | null {
  const issues = methodSpec(version, method)?.validateResult?.({ [field]: [item] });
  if (!issues) return null;
  const at = `/${field}/0`;
  const own = issues.filter((i) => i.path.startsWith(at)).map((i) => ({ ...i, path: i.path.slice(at.length) }));
  return own.length > 0 ? own : null;
}

/**
 * Throws when `def` is not a valid entry of a `method` result in some version this server
 * serves (`versions`, the sessions' option: the legacy versions when not given): it would
 * fail every listing of that version (the outgoing check answers `-32603`), so it is
 * refused at registration, naming the version and field.
 */
export function refuseUnlistable(versions: readonly ProtocolVersion[] | undefined, what: string, method: string, field: string, def: object): void {
  for (const version of versions ?? LEGACY_VERSIONS) {
    const issues = itemIssues(version, method, field, def);
    if (issues) throw new TypeError(`${what} cannot be listed to ${version} clients, which this server serves: ${issuesText(issues)}`);
  }
}
