/**
 * The package root, `mcp-kernel`: the public API of every layer.
 *
 * Each layer also has its own entry point (`mcp-kernel/codec`, `/schema`, `/model`) so
 * a consumer that needs only the codec does not load the schema tables. This file is a
 * plain list: add a layer by adding its `export *` line. A name exported by two layers
 * is a compile error here (TS2308), which is the point: the root namespace stays flat.
 */
export * from "./jsonrpc/index.js";
export * from "./schema/index.js";
export * from "./model/index.js";
export * from "./session/index.js";
export * from "./modern/index.js";
export * from "./driver/index.js";
