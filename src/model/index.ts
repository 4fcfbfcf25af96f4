/**
 * The model layer, as the `mcp-kernel/model` entry point.
 *
 * Spec: draft `basic/versioning` and the method pages. Which versions exist, and what
 * each version says about each method.
 */
export * from "./versions.js";
export * from "./methods.js";
export * from "./meta.js";
