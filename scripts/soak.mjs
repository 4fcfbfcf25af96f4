// Soak: `npm run soak -- --seconds 60 [--sessions 8] [--stdio 4] [--build dir]`.
// An McpServer serves many concurrent clients at once over the in-memory pair and over
// real loopback HTTP (node:http on 127.0.0.1, port 0, McpClient over fetch), and `--stdio`
// clients each spawn the demo server (`mcp-kernel serve --stdio`) as a child process; each
// client loops tools/call, tools/list, ping and a tool that logs, for a bounded time. The
// heap is sampled every second (after a GC when run with --expose-gc, as `npm run soak`
// does), and the open handles (process.getActiveResourcesInfo) before the clients start
// and after they are all closed. Reports requests served, errors, p50/p99 latency, heap
// over time and handles; exits 1 if any request failed, the heap grew (last third of
// samples vs the first third, > 20 % and > 8 MiB) or handles were left open. Stops by
// itself: the time bound, then every session is closed and every child reaped.
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(args[i + 1]);
};
const seconds = opt('seconds', 60);
const sessions = opt('sessions', 8);
const stdioSessions = opt('stdio', 4);
const build = resolve(args.includes('--build') ? args[args.indexOf('--build') + 1] : '.build');
const load = (p) => import(pathToFileURL(join(build, p)).href);
const { McpServer, McpClient, connectMemory, createHttpHandler, httpClientTransport } = await load('src/index.js');
const { serveNode, spawnStdioServer } = await load('src/node.js');
const bin = join(build, 'src/cli/bin.js');

const server = new McpServer({ name: 'soak', version: '1.0.0' });
server.tool('echo', { inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }, (a) => ({ content: [{ type: 'text', text: String(a.text) }] }));
server.tool('chatty', { inputSchema: { type: 'object' } }, (_a, ctx) => {
  ctx.log?.('info', 'working');
  return { content: [{ type: 'text', text: 'done' }] };
});

const handler = createHttpHandler({
  sessionIdleMs: 0,
  createSession: server.httpSession(),
});
const http = await serveNode(handler, { port: 0, host: '127.0.0.1' });

const stats = { memory: { ok: 0, err: 0 }, http: { ok: 0, err: 0 }, stdio: { ok: 0, err: 0 } };
/** The tools each kind of client calls: the in-process server's, or the demo server's over stdio. */
const TOOLS = { memory: ['echo', 'chatty'], http: ['echo', 'chatty'], stdio: ['test_simple_text', 'test_tool_with_logging'] };
// A fixed reservoir, allocated up front, so the measurement itself does not grow the heap.
const RESERVOIR = 100_000;
const reservoir = new Float64Array(RESERVOIR);
let measured = 0;
const errors = [];
const deadline = performance.now() + seconds * 1000;

async function drive(kind, client) {
  let i = 0;
  while (performance.now() < deadline) {
    // The memory pair delivers by microtask only: yield now and then so sockets and the sampler run.
    if (kind === 'memory' && i % 16 === 0) await new Promise((r) => setImmediate(r));
    const t0 = performance.now();
    try {
      const k = i++ % 4;
      if (k === 0) await client.callTool(TOOLS[kind][0], { text: 'x'.repeat(i % 200) });
      else if (k === 1) await client.listTools();
      else if (k === 2) await client.ping();
      else await client.callTool(TOOLS[kind][1], {});
      stats[kind].ok++;
      reservoir[measured++ % RESERVOIR] = performance.now() - t0;
    } catch (e) {
      stats[kind].err++;
      if (errors.length < 5) errors.push(`${kind}: ${e?.message ?? e}`);
    }
  }
}

const heap = [];
const sample = () => {
  globalThis.gc?.();
  heap.push(process.memoryUsage().heapUsed);
};
sample();
const sampler = setInterval(sample, 1000);

/** Open handles by type, to compare before and after. */
const handles = () => {
  const counts = {};
  for (const t of process.getActiveResourcesInfo()) counts[t] = (counts[t] ?? 0) + 1;
  return counts;
};
const handlesBefore = handles();
const clients = [];
const children = [];
const runs = [];
for (let s = 0; s < sessions; s++) {
  const mem = new McpClient({ name: `mem-${s}`, version: '1' });
  await connectMemory((t) => server.connect(t), (t) => mem.connect(t)).client;
  const web = new McpClient({ name: `http-${s}`, version: '1' });
  await web.connect(httpClientTransport(`${http.url}/mcp`));
  clients.push(mem, web);
  runs.push(drive('memory', mem), drive('http', web));
}
for (let s = 0; s < stdioSessions; s++) {
  const child = spawnStdioServer(process.execPath, [bin, 'serve', '--stdio'], { stderr: 'ignore' });
  const c = new McpClient({ name: `stdio-${s}`, version: '1' });
  await c.connect(child);
  clients.push(c);
  children.push(child);
  runs.push(drive('stdio', c));
}
await Promise.all(runs);
clearInterval(sampler);
sample();
for (const c of clients) c.close();
const exits = await Promise.all(children.map((c) => c.exited));
handler.close();
server.close();
await http.close();
// Let closed sockets and pipes finish closing before counting what is left.
for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
const handlesAfter = handles();
const leaked = Object.entries(handlesAfter).filter(([t, n]) => n > (handlesBefore[t] ?? 0));

const latencies = reservoir.slice(0, Math.min(measured, RESERVOIR)).sort();
const q = (p) => (latencies.length === 0 ? 0 : latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]);
const mib = (b) => (b / 1024 / 1024).toFixed(1);
const third = Math.max(1, Math.floor(heap.length / 3));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const early = median(heap.slice(1, 1 + third));
const late = median(heap.slice(-third));
const served = stats.memory.ok + stats.http.ok + stats.stdio.ok;
const failed = stats.memory.err + stats.http.err + stats.stdio.err;
const grew = late - early > Math.max(8 * 1024 * 1024, early * 0.2);
console.log(`soak: ${seconds} s, ${sessions} memory + ${sessions} HTTP + ${stdioSessions} stdio sessions${globalThis.gc ? '' : ' (no --expose-gc: heap figures are noisy)'}`);
console.log(`requests: ${served} served (memory ${stats.memory.ok}, http ${stats.http.ok}, stdio ${stats.stdio.ok}), ${Math.round(served / seconds)}/s; errors: ${failed}`);
console.log(`latency: p50 ${q(0.5).toFixed(2)} ms, p99 ${q(0.99).toFixed(2)} ms`);
console.log(`heap MiB over time: ${heap.map(mib).join(' ')}`);
console.log(`heap: early median ${mib(early)} MiB, late median ${mib(late)} MiB -> ${grew ? 'GREW' : 'flat'}`);
console.log(`handles before: ${JSON.stringify(handlesBefore)}, after: ${JSON.stringify(handlesAfter)} -> ${leaked.length === 0 ? 'none left open' : 'LEFT OPEN ' + JSON.stringify(leaked)}`);
console.log(`stdio children: ${exits.map((e) => (e.code !== null ? `exit ${e.code}` : `signal ${e.signal}`)).join(', ') || 'none'}`);
for (const e of errors) console.log(`  error: ${e}`);
process.exit(failed === 0 && !grew && leaked.length === 0 ? 0 : 1);
