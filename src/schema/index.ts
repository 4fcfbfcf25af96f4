/**
 * The schema layer, as the `mcp-kernel/schema` entry point.
 *
 * Spec: `schema.json` of each version. Validators for every type the schemas define
 * (types.ts; validate.ts's own lookups know only the types the method tables use).
 */
export { MAX_DEPTH, MAX_ISSUES, nodeValidator, type Issue, type ValidationResult, type Validator } from "./validate.js";
export { typeNames, validate, validatorFor } from "./types.js";
export * from "./json-schema.js";
export * from "./elicitation.js";
