/**
 * This package's version, as `mcp-kernel --version` prints it and the command line's own
 * clients and the demo server name themselves (a test holds it equal to package.json's:
 * the bundled command line cannot count on finding that file beside it).
 */
export const KERNEL_VERSION = "0.1.0";
