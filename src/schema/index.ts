/**
 * The schema layer, as the `mcp-kernel/schema` entry point.
 *
 * Spec: `schema.json` of each version. Validators for every type the schemas define.
 */
export * from "./validate.js";
export * from "./json-schema.js";
export * from "./elicitation.js";
