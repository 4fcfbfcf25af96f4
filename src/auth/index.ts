/**
 * Authorization for Streamable HTTP (draft `basic/authorization`): the resource-server
 * wrapper, the OAuth 2.1 client reducer and its fetch adapter (authorization code, and the
 * SEP-1046 client credentials extension with its JWT client assertions), and the
 * discovery helpers.
 */
export * from "./www-authenticate.js";
export * from "./metadata.js";
export * from "./token-request.js";
export * from "./client-flow.js";
export * from "./client-credentials.js";
export * from "./client-assertion.js";
export * from "./resource-server.js";
export * from "./oauth-fetch.js";
