// Soak: `npm run soak -- --seconds 60 [--sessions 8] [--build dir]`.
// An McpServer serves many concurrent clients at once over the in-memory pair and over
// real loopback HTTP (node:http on 127.0.0.1, port 0, McpClient over fetch), each client
// looping tools/call, tools/list, ping and a tool that logs, for a bounded time. The heap
// is sampled every second (after a GC when run with --expose-gc, as `npm run soak` does).
// Reports requests served, errors, p50/p99 latency, heap over time; exits 1 if any
// request failed or the heap grew (last third of samples vs the first third, > 20 %
// and > 8 MiB). Stops by itself: the time bound, then every session is closed.
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(args[i + 1]);
};
const seconds = opt('seconds', 60);
const sessions = opt('sessions', 8);
const build = resolve(args.includes('--build') ? args[args.indexOf('--build') + 1] : '.build');
const load = (p) => import(pathToFileURL(join(build, p)).href);
const { McpServer, McpClient, connectMemory, createHttpHandler, httpClientTransport } = await load('src/index.js');
const { serveNode } = await load('src/node.js');

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

const stats = { memory: { ok: 0, err: 0 }, http: { ok: 0, err: 0 } };
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
      if (k === 0) await client.callTool('echo', { text: 'x'.repeat(i % 200) });
      else if (k === 1) await client.listTools();
      else if (k === 2) await client.ping();
      else await client.callTool('chatty', {});
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

const clients = [];
const runs = [];
for (let s = 0; s < sessions; s++) {
  const mem = new McpClient({ name: `mem-${s}`, version: '1' });
  await connectMemory((t) => server.connect(t), (t) => mem.connect(t)).client;
  const web = new McpClient({ name: `http-${s}`, version: '1' });
  await web.connect(httpClientTransport(`${http.url}/mcp`));
  clients.push(mem, web);
  runs.push(drive('memory', mem), drive('http', web));
}
await Promise.all(runs);
clearInterval(sampler);
sample();
for (const c of clients) c.close();
handler.close();
server.close();
await http.close();

const latencies = reservoir.slice(0, Math.min(measured, RESERVOIR)).sort();
const q = (p) => (latencies.length === 0 ? 0 : latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]);
const mib = (b) => (b / 1024 / 1024).toFixed(1);
const third = Math.max(1, Math.floor(heap.length / 3));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const early = median(heap.slice(1, 1 + third));
const late = median(heap.slice(-third));
const served = stats.memory.ok + stats.http.ok;
const failed = stats.memory.err + stats.http.err;
const grew = late - early > Math.max(8 * 1024 * 1024, early * 0.2);
console.log(`soak: ${seconds} s, ${sessions} memory + ${sessions} HTTP sessions${globalThis.gc ? '' : ' (no --expose-gc: heap figures are noisy)'}`);
console.log(`requests: ${served} served (memory ${stats.memory.ok}, http ${stats.http.ok}), ${Math.round(served / seconds)}/s; errors: ${failed}`);
console.log(`latency: p50 ${q(0.5).toFixed(2)} ms, p99 ${q(0.99).toFixed(2)} ms`);
console.log(`heap MiB over time: ${heap.map(mib).join(' ')}`);
console.log(`heap: early median ${mib(early)} MiB, late median ${mib(late)} MiB -> ${grew ? 'GREW' : 'flat'}`);
for (const e of errors) console.log(`  error: ${e}`);
process.exit(failed === 0 && !grew ? 0 : 1);
