/**
 * Authorization for Streamable HTTP (draft `basic/authorization`): the resource-server
 * wrapper, the OAuth 2.1 client reducer and its fetch adapter, and the discovery helpers.
 */
export * from "./www-authenticate.js";
export * from "./metadata.js";
export * from "./token-request.js";
export * from "./client-flow.js";
export * from "./resource-server.js";
export * from "./oauth-fetch.js";
