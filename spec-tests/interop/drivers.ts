/**
 * {@link Driver}s over the three clients of the interop suite: our {@link McpClient}, the
 * official SDK 1.x `Client` (legacy era only) and the SDK 2.x `Client` (both eras, the
 * modern one by `versionNegotiation`). Each declares elicitation and sampling and answers
 * them with {@link ELICITED} and {@link SAMPLED}, so the servers' tools can report what came
 * back.
 */
import { Client as Sdk1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as Sdk1Stdio } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as Sdk1Http } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateMessageRequestSchema, ElicitRequestSchema, ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as Sdk2Client, StreamableHTTPClientTransport as Sdk2Http } from "@modelcontextprotocol/client";
import { StdioClientTransport as Sdk2Stdio } from "@modelcontextprotocol/client/stdio";
import { McpClient } from "../../src/api/client.js";
import type { Transport } from "../../src/api/transport.js";
import type { CallToolResult, CompleteResult, GetPromptResult, ReadResourceResult } from "../../src/api/types.js";
import type { JsonObject } from "../../src/jsonrpc/types.js";
import { isModernVersion, LEGACY_VERSIONS, MODERN_VERSIONS, PROTOCOL_VERSIONS } from "../../src/model/versions.js";
import { ELICITED, Inbox, SAMPLED, type Driver, type Updated } from "./harness.js";

const CLIENT_INFO = { name: "interop-client", version: "1.0.0" };
const sampleResult = { role: "assistant" as const, model: "interop-model", content: { type: "text" as const, text: SAMPLED } };
const elicitResult = { action: "accept" as const, content: { ...ELICITED } };

/** Which versions our client offers: legacy only, modern only, or both (probe, then fall back). */
export type OurEra = "legacy" | "modern" | "dual";

/** Our McpClient over `transport`. */
export async function ourDriver(transport: Transport, era: OurEra): Promise<Driver> {
  const versions = era === "legacy" ? [...LEGACY_VERSIONS] : era === "modern" ? [...MODERN_VERSIONS] : [...PROTOCOL_VERSIONS];
  const client = new McpClient(CLIENT_INFO, {
    session: { versions },
    handlers: { elicitation: () => elicitResult, sampling: () => sampleResult },
  });
  const updated = new Inbox<Updated>();
  client.onNotification("notifications/resources/updated", (p) => updated.push(p as Updated));
  const acknowledged = new Inbox<JsonObject | undefined>();
  client.onNotification("notifications/subscriptions/acknowledged", (p) => acknowledged.push(p));
  await client.connect(transport);
  const listens: AbortController[] = [];
  return {
    era: isModernVersion(client.protocolVersion) ? "modern" : "legacy",
    protocolVersion: client.protocolVersion,
    serverName: client.serverInfo?.name,
    listTools: async () => (await client.listTools()).tools,
    callTool: (name, args, o) => client.callTool(name, args as JsonObject | undefined, o),
    readResource: (uri) => client.readResource(uri),
    async subscribe(uri) {
      if (!isModernVersion(client.protocolVersion)) return client.subscribeResource(uri);
      // draft basic/patterns/subscriptions: a long-lived request, acknowledged first.
      const ac = new AbortController();
      listens.push(ac);
      client.request("subscriptions/listen", { notifications: { resourceSubscriptions: [uri] } }, { signal: ac.signal }).catch(() => {});
      await acknowledged.next();
    },
    nextUpdated: () => updated.next(),
    listPrompts: async () => (await client.listPrompts()).prompts,
    getPrompt: (name, args) => client.getPrompt(name, args),
    complete: (ref, argument) => client.complete(ref, argument),
    ping: () => client.ping(),
    async close() {
      for (const ac of listens) ac.abort("closing");
      client.close();
    },
  };
}

/** Calls `record` with every message `transport` delivers (the SDK transports' `onmessage` hook). */
function tapInbound(transport: object, record: (message: unknown) => void): void {
  let handler: ((m: unknown, extra?: unknown) => void) | undefined;
  const wrapped = (m: unknown, extra?: unknown): void => {
    record(m);
    handler?.(m, extra);
  };
  Object.defineProperty(transport, "onmessage", {
    configurable: true,
    get: () => (handler === undefined ? undefined : wrapped),
    set: (h: typeof handler) => (handler = h),
  });
}

/** Where an SDK client connects: a command to spawn, or an HTTP URL. */
export type Target = { stdio: { command: string; args: string[] } } | { http: string };

/** The official SDK 1.x client (legacy era). */
export async function sdk1Driver(target: Target): Promise<Driver> {
  const client = new Sdk1Client(CLIENT_INFO, { capabilities: { elicitation: {}, sampling: {} } });
  client.setRequestHandler(ElicitRequestSchema, () => elicitResult);
  client.setRequestHandler(CreateMessageRequestSchema, () => sampleResult);
  const updated = new Inbox<Updated>();
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => updated.push(n.params));
  const transport = "stdio" in target ? new Sdk1Stdio({ ...target.stdio, stderr: "inherit" }) : new Sdk1Http(new URL(target.http));
  // SDK 1.x keeps the negotiated version to itself on stdio: read it off the wire.
  let version: string | undefined;
  tapInbound(transport, (m) => {
    const v = (m as { result?: { protocolVersion?: unknown } }).result?.protocolVersion;
    if (version === undefined && typeof v === "string") version = v;
  });
  await client.connect(transport);
  return {
    era: "legacy",
    protocolVersion: version,
    serverName: client.getServerVersion()?.name,
    listTools: async () => (await client.listTools()).tools,
    callTool: async (name, args, o = {}) =>
      (await client.callTool({ name, arguments: args }, undefined, { signal: o.signal, onprogress: o.onProgress })) as unknown as CallToolResult,
    readResource: async (uri) => (await client.readResource({ uri })) as unknown as ReadResourceResult,
    subscribe: async (uri) => void (await client.subscribeResource({ uri })),
    nextUpdated: () => updated.next(),
    listPrompts: async () => (await client.listPrompts()).prompts,
    getPrompt: async (name, args) => (await client.getPrompt({ name, arguments: args })) as unknown as GetPromptResult,
    complete: async (ref, argument) => (await client.complete({ ref, argument })) as unknown as CompleteResult,
    ping: async () => void (await client.ping()),
    close: () => client.close(),
  };
}

/** How the SDK 2.x client negotiates: the plain 2025 handshake, a pinned 2026-07-28, or auto (probe, fall back). */
export type Sdk2Mode = "legacy" | "modern" | "auto";

/** The official SDK 2.x client. */
export async function sdk2Driver(target: Target, mode: Sdk2Mode): Promise<Driver> {
  const client = new Sdk2Client(CLIENT_INFO, {
    capabilities: { elicitation: {}, sampling: {} },
    versionNegotiation: mode === "legacy" ? undefined : { mode: mode === "auto" ? "auto" : { pin: MODERN_VERSIONS[0] } },
  });
  client.setRequestHandler("elicitation/create", () => elicitResult);
  client.setRequestHandler("sampling/createMessage", () => sampleResult);
  const updated = new Inbox<Updated>();
  client.setNotificationHandler("notifications/resources/updated", (n) => updated.push(n.params));
  const transport = "stdio" in target ? new Sdk2Stdio({ ...target.stdio, stderr: "inherit" }) : new Sdk2Http(new URL(target.http));
  await client.connect(transport);
  const subscriptions: { close(): Promise<void> }[] = [];
  return {
    era: client.getProtocolEra() ?? "legacy",
    protocolVersion: client.getNegotiatedProtocolVersion(),
    serverName: client.getServerVersion()?.name,
    listTools: async () => (await client.listTools()).tools,
    callTool: async (name, args, o = {}) => (await client.callTool({ name, arguments: args }, { signal: o.signal, onprogress: o.onProgress })) as unknown as CallToolResult,
    readResource: async (uri) => (await client.readResource({ uri }, { cacheMode: "bypass" })) as unknown as ReadResourceResult,
    async subscribe(uri) {
      if (client.getProtocolEra() === "modern") subscriptions.push(await client.listen({ resourceSubscriptions: [uri] }));
      else await client.subscribeResource({ uri });
    },
    nextUpdated: () => updated.next(),
    listPrompts: async () => (await client.listPrompts(undefined, { cacheMode: "bypass" })).prompts,
    getPrompt: async (name, args) => (await client.getPrompt({ name, arguments: args })) as unknown as GetPromptResult,
    complete: async (ref, argument) => (await client.complete({ ref, argument })) as unknown as CompleteResult,
    ping: async () => void (await client.ping()),
    async close() {
      for (const s of subscriptions) await s.close();
      await client.close();
    },
  };
}
