// Spec: 2025-11-25 basic/transports ("Streamable HTTP": Sending Messages items 5 and 6,
// Resumability and Redelivery) and draft basic/transports/streamable-http, on the client:
// answers with no body to read, resumptions that bring nothing, streams the server does
// not close, event ids that cannot go back as a header. A wrapping fetch plays the odd
// server; the client's sleep is injected, so nothing waits on a real timer.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "../../src/api/client.js";
import { Endpoint, McpError } from "../../src/driver/endpoint.js";
import { encode } from "../../src/jsonrpc/codec.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { DELETE_WAIT_MS, GET_WAIT_MS, httpClientTransport, MAX_BODILESS_POSTS, MIN_RECONNECT_DELAY_MS, type HttpClientTransport } from "../../src/transports/http-client.js";
import { lastEventIdHeader } from "../../src/transports/http/client-stream.js";
import { makeHandler, Tools, until, URL_, wrappedTransport } from "./helpers.js";
import { attach } from "../../src/api/connection.js";
import { modernHandler, MV } from "./modern-helpers.js";
import { blockText } from "../harness/content.js";
import { collectUncaught } from "../harness/uncaught.js";


function connect(t: HttpClientTransport): Endpoint {
  const ep = new Endpoint({ role: "client", info: { name: "c", version: "1" }, capabilities: {}, versions: ["2025-11-25"] }, { send: (m) => t.send(encode(m)) });
  t.onMessage((x, local) => ep.receive(x, local));
  t.onClose((r) => ep.closed(r));
  return ep;
}

const SSE = { "content-type": "text/event-stream" };
const sse = (text: string) => new Response(text, { status: 200, headers: SSE });
const turns = async (n = 10) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

/** Collects unhandled rejections while `fn` runs (and a few turns after it). */
async function noUnhandled(fn: () => Promise<void>): Promise<void> {
  const seen: unknown[] = [];
  const listener = (e: unknown) => void seen.push(e);
  process.on("unhandledRejection", listener);
  try {
    await fn();
    await turns();
  } finally {
    process.off("unhandledRejection", listener);
  }
  assert.deepEqual(seen, [], "no unhandled rejection");
}

const connectionClosed = (pattern: RegExp) => (e: McpError) => e instanceof McpError && e.code === ErrorCode.ConnectionClosed && pattern.test(e.message);
/** A request the server answered badly fails alone (-32603), without a "connection closed": the session serves on. */
const answeredBadly = (pattern: RegExp) => (e: McpError) => e instanceof McpError && e.code === ErrorCode.InternalError && !/connection closed/.test(e.message) && pattern.test(e.message);

test("streamable-http client (2025-11-25 basic/transports, Sending Messages item 5; README: fails at once a request the server answers with 202): a 205, or any answer with a null body, labelled text/event-stream fails the request at once with -32603 (that request alone: the session serves on), in both eras, and never crashes the process", { timeout: 20_000 }, async () => {
  await noUnhandled(async () => {
    const { handler } = makeHandler();
    let mode: "205" | "200" = "205";
    const t = wrappedTransport(handler, async (_req, next, body) => {
      if (!body.includes('"tools/list"')) return next();
      // new Response(null, { status: 200 }): what a custom fetch may hand back.
      return new Response(null, { status: mode === "205" ? 205 : 200, headers: SSE });
    });
    const ep = connect(t);
    await ep.open();
    for (mode of ["205", "200"] as const) {
      // No timeout can fire here (the endpoint's clock is the system clock, 60 s): the transport answers.
      await assert.rejects(ep.request("tools/list"), answeredBadly(new RegExp(`HTTP ${mode} and no response`)), mode);
    }
    t.close();
  });

  // Modern era: not re-issued either (nothing broke; the server gave no stream).
  await noUnhandled(async () => {
    const { handler } = modernHandler();
    let posts = 0;
    const t = wrappedTransport(handler, async (_req, next, body) => {
      if (!body.includes('"tools/list"')) return next();
      posts++;
      return new Response(null, { status: 205, headers: SSE });
    });
    const client = new McpClient({ name: "c", version: "1" }, { session: { versions: [MV] } });
    await client.connect(t);
    await assert.rejects(client.listTools(), answeredBadly(/HTTP 205 and no response/));
    assert.equal(posts, 1);
    client.close();
  });
});

test("streamable-http client (STYLE: errors never throw across the boundary): a requestHeaders callback that throws, or an injected sleep that rejects on close, fails the request or stops quietly, and leaves no unhandled rejection", { timeout: 20_000 }, async () => {
  await noUnhandled(async () => {
    const { handler } = makeHandler();
    let boom = false;
    const t = wrappedTransport(handler, async (_req, next) => next(), {
      requestHeaders: () => {
        if (boom) throw new Error("no headers today");
        return undefined;
      },
    });
    const ep = connect(t);
    await ep.open();
    boom = true;
    await assert.rejects(ep.request("tools/list"), connectionClosed(/no headers today/));
    t.close();
  });

  await noUnhandled(async () => {
    const { handler } = modernHandler();
    let boom = false;
    const t = wrappedTransport(handler, async (_req, next) => next(), {
      requestHeaders: () => {
        if (boom) throw new Error("no headers today");
        return undefined;
      },
    });
    const client = new McpClient({ name: "c", version: "1" }, { session: { versions: [MV] } });
    await client.connect(t);
    boom = true;
    await assert.rejects(client.listTools(), connectionClosed(/the transport failed: no headers today/));
    client.close();
  });

  await noUnhandled(async () => {
    const { handler } = makeHandler();
    let waiting!: () => void;
    const asleep = new Promise<void>((r) => (waiting = r));
    const t = wrappedTransport(
      handler,
      async (_req, next, body) => {
        if (!body.includes('"tools/list"')) return next();
        // The priming event only: the client waits to resume.
        (await next()).body?.cancel();
        return sse("id: 1-0\ndata:\n\n");
      },
      {
        // Rejects when the transport closes, as the option's contract allows.
        sleep: (_ms, signal) =>
          new Promise((_resolve, reject) => {
            waiting();
            signal.addEventListener("abort", () => reject(new Error("aborted")));
          }),
      },
    );
    const ep = connect(t);
    await ep.open();
    const p = ep.request("tools/list").catch((e: McpError) => e);
    await asleep;
    t.close();
    assert.ok((await p) instanceof McpError);
  });
});

test("streamable-http client (2025-11-25 basic/transports, Resumability, and item 6: the client MUST respect retry; http-client: gives up after maxRetries failures in a row): a resumption the server accepts with 200 but ends without sending anything is a failure; after maxRetries the request fails with -32000; a server's retry: 0 is waited at least MIN_RECONNECT_DELAY_MS", async () => {
  const { handler } = makeHandler();
  let gets = 0;
  const waits: number[] = [];
  const t = wrappedTransport(
    handler,
    async (req, next, body) => {
      if (req.method === "GET") {
        // A bound on a client that never gives up, so this test fails instead of looping.
        if (++gets > 20) return new Response(null, { status: 405 });
        // Accepted, then nothing: an empty body, or none at all.
        return gets % 2 === 1 ? sse("") : new Response(null, { status: 200, headers: SSE });
      }
      if (!body.includes('"tools/list"')) return next();
      (await next()).body?.cancel();
      return sse("id: 1-0\nretry: 0\ndata:\n\n");
    },
    { reconnect: { maxRetries: 3 }, sleep: async (ms) => void waits.push(ms) },
  );
  const ep = connect(t);
  await ep.open();
  await assert.rejects(ep.request("tools/list"), connectionClosed(/gave up resuming the response stream after 3 attempts/));
  assert.equal(gets, 3);
  assert.equal(waits.length, 3);
  assert.ok(
    waits.every((ms) => ms >= MIN_RECONNECT_DELAY_MS),
    `waits ${waits}`,
  );
  t.close();
});

test("streamable-http client (2025-11-25 basic/transports, Listening for Messages item 4): a GET stream that carries only keep-alive comments before a proxy cuts it (a 2025-06-18 session has no priming event) is alive, not failing: it is reopened each time, never given up on", async () => {
  const { handler } = makeHandler();
  let gets = 0;
  const errors: string[] = [];
  const t = wrappedTransport(
    handler,
    async (req, next) => {
      if (req.method !== "GET") return next();
      // A bound, so this test ends: then the server refuses to reopen it.
      if (++gets > 10) return new Response(null, { status: 409 });
      return sse(": keepalive\n\n");
    },
    { openGetStream: true, reconnect: { maxRetries: 3 }, sleep: async () => {}, onError: (e) => void errors.push(e) },
  );
  const ep = connect(t);
  await ep.open();
  await within(() => gets > 10 && errors.length > 0);
  assert.equal(gets, 11);
  assert.deepEqual(errors, ["the server refused to reopen the GET stream (HTTP 409)"]);
  t.close();
});

test("streamable-http client (2025-11-25 basic/transports, Listening for Messages item 4): the standalone GET stream gives up after maxRetries reconnections that bring nothing; one that brings only retry (a polling close) is no failure", async () => {
  for (const mode of ["empty", "polling"] as const) {
    const { handler } = makeHandler();
    let gets = 0;
    const errors: string[] = [];
    const waits: number[] = [];
    let gaveUp!: () => void;
    const done = new Promise<void>((r) => (gaveUp = r));
    const t = wrappedTransport(
      handler,
      async (req, next) => {
        if (req.method !== "GET") return next();
        // A bound on a client that never gives up, so this test fails instead of looping.
        if (++gets > 20) return new Response(null, { status: 409 });
        if (gets === 1) return sse("id: g-0\nretry: 0\ndata:\n\n");
        // Polling: the server closes each connection after its retry, six times, then has nothing more to offer.
        if (mode === "polling" && gets <= 7) return sse("retry: 0\n\n");
        return sse("");
      },
      {
        openGetStream: true,
        reconnect: { maxRetries: 3 },
        sleep: async (ms) => void waits.push(ms),
        onError: (e) => {
          errors.push(e);
          gaveUp();
        },
      },
    );
    const ep = connect(t);
    await ep.open();
    await done;
    assert.deepEqual(errors, ["gave up on the GET stream after 3 attempts; the next request that goes through opens it again"]);
    // The first GET, the polls that brought a retry, then three empty ones.
    assert.equal(gets, mode === "polling" ? 1 + 6 + 3 : 1 + 3, mode);
    assert.ok(
      waits.every((ms) => ms >= MIN_RECONNECT_DELAY_MS),
      `waits ${waits}`,
    );
    t.close();
  }
});

/** An SSE response that sends `text` and never ends (a server that ignores the SHOULD); counts its cancels. */
function endless(text: string, onCancel: () => void): Response {
  const body = new ReadableStream<Uint8Array>({
    start: (c) => c.enqueue(new TextEncoder().encode(text)),
    cancel: onCancel,
  });
  return new Response(body, { status: 200, headers: SSE });
}

test("streamable-http client (draft basic/transports/streamable-http: the final response SHOULD terminate the stream; 2025-11-25 basic/transports, Sending Messages item 6): a request's POST stream the server leaves open is closed by the client once its response arrived, in both eras", async () => {
  // Modern: the handler's JSON answer, served on a stream that never ends.
  {
    const { handler } = modernHandler();
    let cancels = 0;
    const t = wrappedTransport(handler, async (_req, next, body) => {
      if (!body.includes('"tools/list"')) return next();
      return endless(`data: ${await (await next()).text()}\n\n`, () => void cancels++);
    });
    const client = new McpClient({ name: "c", version: "1" }, { session: { versions: [MV] } });
    await client.connect(t);
    for (let i = 0; i < 20; i++) await client.listTools();
    await turns();
    assert.equal(cancels, 20);
    client.close();
  }
  // Legacy: the handler's own stream (priming event, response), left open.
  {
    const { handler } = makeHandler();
    let cancels = 0;
    const t = wrappedTransport(handler, async (_req, next, body) => {
      if (!body.includes('"tools/list"')) return next();
      return endless(await (await next()).text(), () => void cancels++);
    });
    const ep = connect(t);
    await ep.open();
    for (let i = 0; i < 5; i++) await ep.request("tools/list");
    await turns();
    assert.equal(cancels, 5);
    t.close();
  }
});

test("streamable-http client (2025-11-25 basic/transports, Resumability item 2: resume with the Last-Event-ID header; WHATWG EventSource: the last event ID \"encoded as UTF-8\"): a non-ASCII event id goes back as its UTF-8 bytes; one that cannot be a header value (a control character) fails the request at once instead of resumption attempts that all throw, and the GET stream reopens without it", async () => {
  const { handler } = makeHandler();
  const gets: (string | null)[] = [];
  const errors: string[] = [];
  let gaveUp!: () => void;
  const ended = new Promise<void>((r) => (gaveUp = r));
  const t = httpClientTransport(URL_, {
    sleep: async () => {},
    onError: (e) => {
      errors.push(e);
      if (/HTTP 409|gave up/.test(e)) gaveUp();
    },
    fetch: async (url, init) => {
      if (init.method === "GET") {
        const h = new Headers(init.headers as Record<string, string>);
        gets.push(h.get("last-event-id"));
        if (gets.length === 1) return sse("id: g\u00e9\u{1F600}\ndata:\n\n");
        if (gets.length === 2) return sse("id: h\u0001\ndata:\n\n");
        return new Response(null, { status: 409 });
      }
      const req = new Request(url, init);
      const r = await handler(req);
      if (!String(init.body).includes('"tools/list"')) return r;
      await r.body?.cancel();
      return sse("id: a\u007f\nretry: 10\ndata:\n\n");
    },
  });
  const ep = connect(t);
  await ep.open();
  await ended;
  // The GET stream: resumed with the UTF-8 bytes of "gé😀", then reopened without the id it could not send back (the server then refused it).
  assert.deepEqual(gets, [null, Buffer.from("g\u00e9\u{1F600}", "utf8").toString("latin1"), null]);
  assert.match(errors[0], /the event id "h\\u0001" cannot be sent as a Last-Event-ID header; reopening the GET stream without it/);
  await assert.rejects(ep.request("tools/list"), connectionClosed(/the event id "a\u007f" cannot be sent as a Last-Event-ID header/));
  assert.equal(gets.length, 3, "no resumption GET for the POST stream");
  t.close();
});

test("streamable-http client (WHATWG EventSource: the last event ID \"encoded as UTF-8\"; RFC 9110 §5.5 field values): Last-Event-ID is the id's UTF-8 bytes, and an id no header carries as it is (a control character, a space or tab at either end, which fetch would trim into another id) has none", () => {
  assert.equal(lastEventIdHeader("1-5"), "1-5");
  assert.equal(lastEventIdHeader("a b\tc"), "a b\tc");
  assert.equal(lastEventIdHeader("\u00e9"), "\u00c3\u00a9");
  for (const id of ["\u0001", "a\u007f", " 5", "5\t", "5 ", "\t5"]) assert.equal(lastEventIdHeader(id), undefined, JSON.stringify(id));
});

test("streamable-http client (README httpClientTransport fetch option): a fetch that refuses a request (an error with retryable: false, as oauthFetch's OAuthError when it cannot authorize) fails that request once with -32603 and its reason: no re-issue, no 'connection closed', and the next request goes through, in both eras", async () => {
  const refusal = Object.assign(new Error("the server still answers insufficient_scope after 2 step-up attempts"), { retryable: false });
  // Modern: without the mark, a rejected fetch is a broken stream and the request is re-issued.
  {
    const { handler } = modernHandler();
    let posts = 0;
    const t = wrappedTransport(handler, async (_req, next, body) => {
      if (!body.includes('"tools/list"')) return next();
      posts++;
      if (posts === 1) throw refusal;
      return next();
    });
    const client = new McpClient({ name: "c", version: "1" }, { session: { versions: [MV] } });
    await client.connect(t);
    await assert.rejects(client.listTools(), (e: McpError) => e.code === ErrorCode.InternalError && /^the request was not sent: the server still answers insufficient_scope/.test(e.message));
    assert.equal(posts, 1, "not re-issued");
    assert.ok(Array.isArray((await client.listTools()).tools));
    client.close();
  }
  // Legacy.
  {
    const { handler } = makeHandler();
    let posts = 0;
    const t = wrappedTransport(handler, async (_req, next, body) => {
      if (!body.includes('"tools/list"')) return next();
      if (++posts === 1) throw refusal;
      return next();
    });
    const ep = connect(t);
    await ep.open();
    await assert.rejects(ep.request("tools/list"), (e: McpError) => e.code === ErrorCode.InternalError && /not sent/.test(e.message));
    assert.ok(Array.isArray((await ep.request("tools/list")).tools));
    t.close();
  }
});

test("streamable-http client (basic/index Responses; README Limits, SSE event): a response event over the client's limit fails its request at once with -32603, read from the event's ends (id last, as SDK 1.x writes it), instead of resuming after it until the timeout", async () => {
  const { handler } = makeHandler();
  const gets: string[] = [];
  const t = wrappedTransport(handler, async (req, next, body) => {
    if (req.method === "GET") gets.push(req.headers.get("last-event-id") ?? "");
    if (!body.includes('"tools/list"')) return next();
    const id = (JSON.parse(body) as { id: number }).id;
    const huge = JSON.stringify({ result: { tools: [], pad: "p".repeat(4_300_000) }, jsonrpc: "2.0", id });
    // A priming event, then the response in one event, then the server ends the stream.
    return sse(`id: 1-0\ndata:\n\nid: 1-1\ndata: ${huge}\n\n`);
  }, { openGetStream: false });
  const ep = connect(t);
  await ep.open();
  await assert.rejects(ep.request("tools/list"), (e: McpError) => e.code === ErrorCode.InternalError && /^malformed response from the peer: message exceeds maxBytes/.test(e.message));
  await turns();
  assert.deepEqual(gets, [], "no resumption: the response was the dropped event");
  // The session serves on.
  assert.equal((await ep.request("ping")).constructor, Object);
  t.close();
});

test("streamable-http client (README Limits, SSE event: the error names the limit): a response event over the client's maxMessageBytes fails its request with the configured limit in the message, not the SSE decoder's event bound (the limit plus room for field names)", async () => {
  const { handler } = makeHandler();
  const t = wrappedTransport(handler, async (_req, next, body) => {
    if (!body.includes('"tools/list"')) return next();
    const id = (JSON.parse(body) as { id: number }).id;
    return sse(`id: 1-0\ndata:\n\nid: 1-1\ndata: ${JSON.stringify({ jsonrpc: "2.0", id, result: { tools: [], pad: "p".repeat(3000) } })}\n\n`);
  }, { openGetStream: false, maxMessageBytes: 1000 });
  const ep = connect(t);
  await ep.open();
  await assert.rejects(ep.request("tools/list"), (e: McpError) => e.code === ErrorCode.InternalError && e.message === "malformed response from the peer: message exceeds maxBytes (1000)" && !e.fromPeer);
  t.close();
});

/** A result response of exactly `bytes` UTF-8 bytes, padded with `ch` (and ASCII to the byte). */
function answerOfBytes(id: number, bytes: number, ch: string): string {
  const base = JSON.stringify({ jsonrpc: "2.0", id, result: { tools: [], pad: "" } });
  const per = new TextEncoder().encode(ch).length;
  const n = Math.floor((bytes - base.length) / per);
  const text = JSON.stringify({ jsonrpc: "2.0", id, result: { tools: [], pad: ch.repeat(n) + "a".repeat(bytes - base.length - n * per) } });
  assert.equal(new TextEncoder().encode(text).length, bytes);
  return text;
}

// README Limits, "JSON response body and SSE event (HTTP client)": maxMessageBytes is the
// largest message read, in bytes, an event only given room for its field names. The SSE
// decoder counts characters, so a message over the limit within that room (ASCII), or up
// to three times it (a text in a script that is not ASCII), was handed on as read, where
// the same message as a JSON body fails its request.
test("streamable-http client (README Limits, SSE event): an event's message is bounded by maxMessageBytes in UTF-8 bytes, as a JSON body is: at the limit it is delivered, one byte past it (ASCII or multi-byte) its request fails with -32603 naming the limit; the session serves on", async () => {
  const { handler } = makeHandler();
  let plan: { bytes: number; ch: string } | undefined;
  const t = wrappedTransport(handler, async (_req, next, body) => {
    if (!body.includes('"tools/list"') || plan === undefined) return next();
    const id = (JSON.parse(body) as { id: number }).id;
    return sse(`id: 1-0\ndata:\n\nid: 1-1\ndata: ${answerOfBytes(id, plan.bytes, plan.ch)}\n\n`);
  }, { openGetStream: false, maxMessageBytes: 1000 });
  const ep = connect(t);
  await ep.open();
  for (const ch of ["a", "€", "😀"]) {
    plan = { bytes: 1000, ch };
    assert.equal(((await ep.request("tools/list")) as { pad: string }).pad.length > 0, true, `${ch}: a message of exactly maxMessageBytes is delivered`);
    for (const bytes of [1001, 2000]) {
      plan = { bytes, ch };
      await assert.rejects(ep.request("tools/list"), (e: McpError) => e.code === ErrorCode.InternalError && e.message === "malformed response from the peer: message exceeds maxBytes (1000)" && !e.fromPeer, `${ch}, ${bytes} bytes`);
    }
  }
  plan = undefined;
  assert.equal((await ep.request("ping")).constructor, Object, "the session serves on");
  t.close();
});

/** `message` as bytes with an overlong "/" (C0 AF, not UTF-8) in place of the "@@" in it. */
function withBadBytes(message: object): Uint8Array<ArrayBuffer> {
  const [pre, post] = JSON.stringify(message).split("@@");
  const enc = new TextEncoder();
  return Uint8Array.from([...enc.encode(pre), 0xc0, 0xaf, ...enc.encode(post)]);
}

test("streamable-http client (2025-11-25 basic/transports: JSON-RPC messages MUST be UTF-8 encoded; README: a response whose bytes are not UTF-8 fails its request): a JSON body or an SSE event that is not UTF-8 fails the request it answers with -32603, as over stdio, not resolved with replacement characters; the call beside it and the session go on, in both eras", async () => {
  for (const mode of ["json", "sse"] as const) {
    for (const era of ["2025-11-25", MV] as const) {
      const { handler } = era === MV ? modernHandler() : makeHandler();
      let posts = 0;
      const t = wrappedTransport(handler, async (_req, next, body) => {
        if (!body.includes('"tools/list"')) return next();
        posts++;
        const id = (JSON.parse(body) as { id: number }).id;
        const bad = withBadBytes({ jsonrpc: "2.0", id, result: { tools: [], note: "a@@b" } });
        if (mode === "json") return new Response(bad, { status: 200, headers: { "content-type": "application/json" } });
        const enc = new TextEncoder();
        return new Response(Uint8Array.from([...enc.encode(era === MV ? "data: " : "id: 1-0\ndata:\n\nid: 1-1\ndata: "), ...bad, ...enc.encode("\n\n")]), { status: 200, headers: SSE });
      });
      const client = new McpClient({ name: "c", version: "1" }, { session: { versions: [era] } });
      await client.connect(t);
      const [bad, beside] = await Promise.allSettled([client.listTools(), client.callTool("echo", { text: "beside" })]);
      const e = (bad as PromiseRejectedResult).reason as McpError;
      assert.equal(bad.status, "rejected", `${mode} ${era}`);
      assert.equal(e.code, ErrorCode.InternalError, `${mode} ${era}`);
      assert.match(e.message, /^malformed response from the peer: .*not valid UTF-8/, `${mode} ${era}`);
      // draft basic/index: this side's error, not one the server sent.
      assert.equal(e.fromPeer, false, `${mode} ${era}`);
      assert.equal(beside.status === "fulfilled" && blockText(beside.value.content[0]), "beside", `${mode} ${era}`);
      assert.equal(posts, 1, `${mode} ${era}: not re-issued, no resumption`);
      assert.equal(blockText((await client.callTool("echo", { text: "after" })).content[0]), "after");
      client.close();
    }
  }
});

test("streamable-http client (draft: a broken modern stream is re-issued under a new id): when the re-issued request's response is the event over the limit, the call fails at once with -32603 under the id the application knows", async () => {
  const { handler } = modernHandler();
  let attempts = 0;
  const t = wrappedTransport(handler, async (_req, next, body) => {
    if (!body.includes('"tools/list"')) return next();
    attempts++;
    // First attempt: the stream ends before the response (re-issued). Second: the response is too large.
    if (attempts === 1) return sse(": nothing yet\n\n");
    const wireId = (JSON.parse(body) as { id: unknown }).id;
    return sse(`data: ${JSON.stringify({ result: { tools: [], pad: "p".repeat(4_300_000) }, jsonrpc: "2.0", id: wireId })}\n\n`);
  });
  const client = new McpClient({ name: "c", version: "1" }, { session: { versions: [MV] } });
  await client.connect(t);
  await assert.rejects(client.listTools(), (e: McpError) => e.code === ErrorCode.InternalError && /malformed response from the peer: message exceeds maxBytes/.test(e.message));
  assert.equal(attempts, 2);
  client.close();
});

test("streamable-http client (basic/index: the error names the request's id when it can be read): a server request event over the limit is answered -32600 with its id, and the stream carries on to the response", async () => {
  const { handler } = makeHandler();
  const posted: string[] = [];
  const t = wrappedTransport(handler, async (_req, next, body) => {
    posted.push(body);
    if (!body.includes('"tools/list"')) return next();
    const id = (JSON.parse(body) as { id: number }).id;
    const huge = JSON.stringify({ jsonrpc: "2.0", id: "s1", method: "sampling/createMessage", params: { messages: [{ role: "user", content: { type: "text", text: "q".repeat(4_300_000) } }], maxTokens: 5 } });
    return sse(`id: 1-0\ndata:\n\nid: 1-1\ndata: ${huge}\n\nid: 1-2\ndata: ${JSON.stringify({ jsonrpc: "2.0", id, result: { tools: [] } })}\n\n`);
  });
  const ep = connect(t);
  await ep.open();
  assert.deepEqual(await ep.request("tools/list"), { tools: [] });
  await turns();
  const reply = posted.map((b) => (b.includes('"s1"') ? JSON.parse(b) : undefined)).find((m) => m !== undefined);
  assert.equal(reply?.error?.code, ErrorCode.InvalidRequest);
  assert.match(reply.error.message, /message exceeds maxBytes/);
  t.close();
});

test("streamable-http client (2025-11-25 basic/transports, Resumability: Last-Event-ID names the last event the client received; WHATWG: an event cut before its blank line is not dispatched): a POST stream cut anywhere inside its response event is resumed from the last complete event, so the replay brings the response and the call resolves", async () => {
  const { handler } = makeHandler();
  let cutAt = 0;
  let span = Infinity;
  let primed = "";
  const resumedFrom: Array<string | null> = [];
  const t = wrappedTransport(handler, async (req, next, body) => {
    if (req.method === "GET") {
      resumedFrom.push(req.headers.get("last-event-id"));
      // Without the fix the client resumes after the response and waits forever: stop it.
      if (resumedFrom.length > 3) return new Response(null, { status: 400 });
      return next();
    }
    if (!body.includes('"cut-')) return next();
    const text = await (await next()).text();
    // The stream is the priming event, then the response event; cut inside the latter.
    const start = text.lastIndexOf("\n\n", text.length - 3) + 2;
    primed = /^id: (.*)$/m.exec(text)![1];
    span = text.length - start;
    const bytes = new TextEncoder().encode(text.slice(0, start + cutAt));
    let sent = false;
    return new Response(
      new ReadableStream<Uint8Array>({
        // The cut part is read, then the connection fails (an error in the same pull would discard the queued bytes).
        pull(c) {
          if (sent) return c.error(new TypeError("network down"));
          sent = true;
          c.enqueue(bytes);
        },
      }),
      { status: 200, headers: SSE },
    );
  });
  const ep = connect(t);
  await ep.open();
  // Every cut: at the event's start, after its id line, inside its data, before its blank line.
  for (cutAt = 0; cutAt < span; cutAt++) {
    resumedFrom.length = 0;
    const r = await ep.request("tools/call", { name: "echo", arguments: { text: `cut-${cutAt}` } });
    assert.equal((r.content as Array<{ text: string }>)[0].text, `cut-${cutAt}`);
    assert.deepEqual(resumedFrom, [primed], `cut ${cutAt} bytes into the response event`);
  }
  assert.ok(cutAt > 20, "the response event was cut at every offset");
  t.close();
});

/** Yields until `cond()` holds, for a bounded number of event-loop turns (a test fails instead of hanging). */
async function within(cond: () => boolean, n = 500): Promise<void> {
  for (let i = 0; i < n && !cond(); i++) await turns(1);
}

/** An endpoint over `t` that hands the server's notifications to `onNotification`. */
function listening(t: HttpClientTransport, onNotification: (method: string) => void): Endpoint {
  const ep = new Endpoint({ role: "client", info: { name: "c", version: "1" }, capabilities: {}, versions: ["2025-11-25"] }, { send: (m) => t.send(encode(m)), onNotification });
  t.onMessage((x, local) => ep.receive(x, local));
  t.onClose((r) => ep.closed(r));
  return ep;
}

test("streamable-http client (2025-11-25 basic/transports, Listening for Messages: the standalone GET stream carries the server's unrelated messages; SEP-1699 reconnection with backoff): a first GET that fails or is refused is retried on the reconnect policy, and a notifications/initialized POST that failed after the server took it still opens the stream, so list_changed arrives", async () => {
  for (const mode of ["throw", "503", "initialized-lost"] as const) {
    const { handler, tools } = makeHandler();
    let gets = 0;
    const errors: string[] = [];
    const waits: number[] = [];
    const t = wrappedTransport(
      handler,
      async (req, next, body) => {
        if (req.method === "GET") {
          gets++;
          if (mode === "throw" && gets <= 2) throw new TypeError("network down");
          if (mode === "503" && gets <= 2) return new Response(null, { status: 503 });
          return next();
        }
        if (mode === "initialized-lost" && body.includes("notifications/initialized")) {
          // The server processed it; its answer is lost.
          await (await next()).body?.cancel();
          throw new TypeError("connection reset");
        }
        return next();
      },
      { openGetStream: true, reconnect: { initialDelayMs: 100, factor: 2 }, sleep: async (ms) => void waits.push(ms), onError: (e) => errors.push(e) },
    );
    const heard: string[] = [];
    const ep = listening(t, (m) => heard.push(m));
    await ep.open();
    // Once the server has taken notifications/initialized (no GET goes out before it); bounded, as without the retry no GET may come.
    await within(() => gets > 0);
    // Unrelated: the server keeps it for the GET stream, whenever that connects.
    tools.endpoints[0].notify("notifications/tools/list_changed");
    await within(() => heard.length > 0);
    assert.deepEqual(heard, ["notifications/tools/list_changed"], mode);
    if (mode === "initialized-lost") {
      assert.equal(gets, 1);
      assert.deepEqual(errors, ["POST failed: connection reset"]);
    } else {
      assert.equal(gets, 3, mode);
      // The hold of the session's first requests (GET_WAIT_MS), then the backoff of a broken stream: initialDelayMs × factor per failure.
      assert.deepEqual(waits, [GET_WAIT_MS, 200, 400], mode);
      const why = mode === "throw" ? "GET stream failed: network down" : "GET stream refused: HTTP 503";
      assert.deepEqual(errors, [why, why], mode);
    }
    t.close();
  }
});

test("streamable-http client (2025-11-25 basic/transports, Listening for Messages item 3: 405 means no GET stream; http-client: gives up after maxRetries): a server that keeps refusing the first GET gets maxRetries attempts with growing waits, one that answers 405 exactly one, as does a 404 just after the session answered (a POST-only route: no renewal, which would open a session per GET without end), and close() during the backoff ends the wait with no GET after it", async () => {
  for (const status of [503, 405, 404]) {
    const { handler } = makeHandler();
    let gets = 0;
    let initializes = 0;
    const errors: string[] = [];
    const waits: number[] = [];
    const t = wrappedTransport(
      handler,
      async (req, next, body) => (req.method === "GET" ? (gets++, new Response(null, { status })) : (body.includes('"initialize"') && initializes++, next())),
      { openGetStream: true, reconnect: { initialDelayMs: 100, factor: 2, maxRetries: 3 }, sleep: async (ms) => void waits.push(ms), onError: (e) => errors.push(e) },
    );
    const ep = connect(t);
    await ep.open();
    await within(() => errors.length === 4 || (status !== 503 && gets === 1));
    await turns();
    assert.equal(initializes, 1, `${status}: one session`);
    if (status !== 503) {
      assert.equal(gets, 1);
      assert.deepEqual(errors, status === 404 ? ["GET stream refused: HTTP 404"] : []);
    } else {
      assert.equal(gets, 3);
      assert.deepEqual(waits, [GET_WAIT_MS, 200, 400]);
      assert.equal(errors.at(-1), "gave up on the GET stream after 3 attempts; the next request that goes through opens it again");
    }
    t.close();
  }

  {
    // maxRetries: 0 gives up after the first failure; that first GET is still made, and releases the requests held for it.
    const { handler } = makeHandler();
    let gets = 0;
    const errors: string[] = [];
    const t = wrappedTransport(handler, async (req, next) => (req.method === "GET" ? (gets++, new Response(null, { status: 503 })) : next()), {
      openGetStream: true,
      reconnect: { maxRetries: 0 },
      onError: (e) => errors.push(e),
    });
    const ep = connect(t);
    await ep.open();
    await within(() => errors.length === 2);
    assert.equal(gets, 1);
    assert.deepEqual(errors, ["GET stream refused: HTTP 503", "gave up on the GET stream after 1 attempts; the next request that goes through opens it again"]);
    t.close();
  }

  const { handler } = makeHandler();
  let gets = 0;
  let waiting: AbortSignal | undefined;
  const t = wrappedTransport(handler, async (req, next) => (req.method === "GET" ? (gets++, new Response(null, { status: 503 })) : next()), {
    openGetStream: true,
    // A backoff that lasts until the transport ends it (not the bound of close()'s DELETE, which starts then).
    sleep: (ms, signal) => new Promise<void>((resolve) => (ms === DELETE_WAIT_MS || (waiting = signal), signal.addEventListener("abort", () => resolve()))),
  });
  const ep = connect(t);
  // open() waits for the session's first GET (or GET_WAIT_MS, here the never-ending sleep).
  await ep.open();
  await within(() => waiting !== undefined && gets === 1);
  t.close();
  assert.equal(waiting!.aborted, true);
  await turns();
  assert.equal(gets, 1, "no GET after close()");
});

test("streamable-http client (2025-11-25 Resumability): a dozen POST streams resuming at once each wait out their backoff on a signal of their own, all aborted by close(): none piles listeners on one shared signal (Node warns of a leak past ten)", async () => {
  const { handler, tools } = makeHandler();
  const signals: AbortSignal[] = [];
  const t = wrappedTransport(handler, (_req, next) => next(), {
    openGetStream: false,
    // (Not the bound of close()'s DELETE, which starts then.)
    sleep: (ms, signal) => new Promise<void>((resolve) => (ms === DELETE_WAIT_MS || signals.push(signal), signal.addEventListener("abort", () => resolve(), { once: true }))),
  });
  const ep = connect(t);
  await ep.open();
  const calls = Array.from({ length: 12 }, () => ep.request("tools/call", { name: "wait" }).catch((e: McpError) => e.code));
  await within(() => tools.gates.length === 12);
  handler.closeConnections(); // every POST stream is cut; each is resumed after its backoff
  await within(() => signals.length === 12);
  assert.equal(new Set(signals).size, 12, "one signal per wait");
  t.close();
  assert.ok(signals.every((s) => s.aborted), "close() ends every wait");
  assert.deepEqual(await Promise.all(calls), Array(12).fill(ErrorCode.ConnectionClosed));
  for (let i = 0; i < 12; i++) tools.release();
});

test("streamable-http client (README: an endpoint hook that throws leaves receive(); the other transports count the message delivered and go on): a hook that throws on a GET stream's message costs the stream nothing: the error is rethrown on a fresh microtask, the next message is delivered, and the stream is not reopened (it was taken for a broken connection, resumed from before that message, which threw again: a reconnection a second, for good, and nothing after it ever delivered)", { timeout: 10_000 }, async () => {
  const tools = new Tools();
  const { handler } = makeHandler(tools);
  let gets = 0;
  const fetch = async (url: string, init: RequestInit) => {
    if ((init.method ?? "GET") === "GET") gets++;
    return handler(new Request(url, init));
  };
  const t = httpClientTransport(URL_, { fetch, sleep: () => new Promise((r) => setImmediate(r)) });
  const heard: string[] = [];
  const ep = attach(t, { role: "client", info: { name: "c", version: "1" }, capabilities: {} }, {
    onNotification: (method) => {
      heard.push(method);
      if (method === "notifications/tools/list_changed") throw new Error("app bug");
    },
  });
  const { thrown, restore } = collectUncaught();
  try {
    await ep.open();
    await until(() => gets === 1 && tools.endpoints.length === 1);
    tools.endpoints[0].notify("notifications/tools/list_changed");
    await until(() => thrown.length > 0, 1000);
    tools.endpoints[0].log("info", "after");
    await until(() => heard.includes("notifications/message"), 1000);
  } finally {
    t.close();
    restore();
  }
  assert.deepEqual(heard, ["notifications/tools/list_changed", "notifications/message"]);
  assert.deepEqual(thrown.map((e) => (e as Error).message), ["app bug"], "rethrown once, not swallowed");
  assert.equal(gets, 1, "the GET stream was not reopened");
});

test("streamable-http client (README Limits: every buffer is bounded): a server that sends requests (pings) on its GET stream faster than it takes their answers gets at most MAX_BODILESS_POSTS answer POSTs in flight; the stream is read on as they are answered, and every ping is answered in the end. Unbounded before: 500 pings, 500 fetches waiting at once (20 000 held 20 000)", { timeout: 20_000 }, async () => {
  const PINGS = 500;
  const CHUNK = 10;
  let sent = 0;
  const held: (() => void)[] = [];
  let maxHeld = 0;
  let answered = 0;
  const json = (body: unknown, headers: Record<string, string> = {}) => new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json", ...headers } });
  const fetch = async (_url: string, init: RequestInit): Promise<Response> => {
    const method = init.method ?? "GET";
    if (method === "DELETE") return new Response(null, { status: 204 });
    if (method === "GET") {
      // Pulled as the client reads: a server's queue, not the client's.
      const body = new ReadableStream<Uint8Array>(
        {
          pull(c) {
            if (sent >= PINGS) return new Promise(() => {});
            let text = "";
            for (let k = 0; k < CHUNK && sent < PINGS; k++, sent++) text += `data: {"jsonrpc":"2.0","id":${sent},"method":"ping"}\n\n`;
            c.enqueue(new TextEncoder().encode(text));
          },
        },
        { highWaterMark: 0 },
      );
      return new Response(body, { status: 200, headers: SSE });
    }
    const text = String(init.body);
    if (text.includes('"initialize"')) {
      const id = JSON.parse(text).id;
      return json({ jsonrpc: "2.0", id, result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "s", version: "1" } } }, { "mcp-session-id": "s1" });
    }
    if (text.includes('"notifications/initialized"')) return new Response(null, { status: 202 });
    // An answer to a ping: the server takes it only when the test says so.
    assert.match(text, /"result"/);
    return new Promise<Response>((resolve) => {
      held.push(() => {
        answered++;
        resolve(new Response(null, { status: 202 }));
      });
      maxHeld = Math.max(maxHeld, held.length);
    });
  };
  const t = httpClientTransport(URL_, { fetch, sleep: () => new Promise((r) => setImmediate(r)) });
  const ep = connect(t);
  try {
    await ep.open();
    await until(() => held.length >= MAX_BODILESS_POSTS, 1000);
    // However long the server keeps them, the client reads no further.
    for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
    assert.ok(held.length <= MAX_BODILESS_POSTS + CHUNK, `${held.length} answer POSTs in flight`);
    assert.ok(sent < PINGS, "the rest of the pings wait on the server's side");
    // The server takes them: the stream is read on, and every ping is answered.
    await until(() => {
      for (const release of held.splice(0)) release();
      return answered === PINGS;
    }, 10_000);
  } finally {
    t.close();
  }
  assert.equal(sent, PINGS);
  assert.ok(maxHeld <= MAX_BODILESS_POSTS + CHUNK, `at most ${maxHeld} in flight at once`);
});
