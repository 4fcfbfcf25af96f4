/**
 * `mcp-kernel/node`: the adapters that import Node's built-in modules.
 *
 * Spec: `basic/transports` of 2025-11-25 ("stdio", "Streamable HTTP").
 *
 * Kept out of the package root so that the root loads in a browser. Deno and Bun resolve
 * `node:` specifiers themselves, so this entry works there too: {@link stdioServerTransport}
 * and {@link spawnStdioServer} pick the runtime's own module at run time.
 */
export { stdioServerTransport, spawnStdioServer, detectRuntime, type Runtime, type StdioServerOptions } from "./transports/stdio.js";
export { nodeServerTransport, nodeSpawn } from "./transports/stdio-node.js";
export { serveNode, toNodeListener, WRITE_STALL_MS, type FetchHandler, type NodeListenerOptions, type NodeServer, type ServeNodeOptions } from "./transports/http-node.js";
