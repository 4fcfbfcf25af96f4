/**
 * Progress sent the official SDK's way: `notifications/progress` through the context's
 * `notify`, naming the request's progress token.
 *
 * Spec: 2025-11-25 `basic/utilities/progress`: progress notifications MUST only reference
 * tokens that were provided in an active request, and the progress value MUST increase
 * with each notification.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { connect } from "./setup.js";

test("basic/utilities/progress: ctx.notify of notifications/progress under the request's token reaches the caller as progress; values that do not increase, and another token, do not go out", async () => {
  const c = await connect((s) =>
    s.tool("steps", {}, (_args, ctx) => {
      const progressToken = ctx.meta?.progressToken as string | number;
      ctx.notify("notifications/progress", { progressToken, progress: 1, total: 3, message: "one" });
      ctx.notify("notifications/progress", { progressToken, progress: 1, total: 3 }); // not an increase: dropped
      ctx.notify("notifications/progress", { progressToken: "someone-else", progress: 2 }); // not this request's token
      ctx.notify("notifications/progress", { progressToken, progress: 2, total: 3 });
      return { content: [{ type: "text", text: "done" }] };
    }),
  );
  const seen: number[] = [];
  await c.client.callTool("steps", {}, { onProgress: (p) => seen.push(p.progress) });
  assert.deepEqual(seen, [1, 2]);
  const sent = c.sent("server", "notifications/progress").map((m) => {
    const { progressToken: _, ...rest } = m.params;
    return rest;
  });
  assert.deepEqual(sent, [
    { progress: 1, total: 3, message: "one" },
    { progress: 2, total: 3 },
  ]);
});
