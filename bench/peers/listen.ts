/** A `node:http` server for a bench peer on 127.0.0.1, port 0, at `/mcp`; closing it drops its connections. */
import { createServer, type RequestListener } from "node:http";
import type { HttpServerHandle } from "./workload.js";

/** Listens with `listener`; `before` runs first when the handle is closed (the peer's own sessions). */
export async function listenLocal(listener: RequestListener, before?: () => Promise<void>): Promise<HttpServerHandle> {
  const http = createServer(listener);
  await new Promise<void>((r) => http.listen(0, "127.0.0.1", r));
  const port = (http.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      await before?.();
      http.closeAllConnections();
      await new Promise((r) => http.close(r));
    },
  };
}
