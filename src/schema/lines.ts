/**
 * The generator's big tables (validator nodes, method rows; src/schema/generated/) are
 * strings of one JSON value per line rather than array literals. An array literal builds
 * every array when its module loads, and is slower to compile; a process reads only a
 * few of them (a stdio server answering its first `tools/call` parses 47 of the kernel's
 * 367 lines: 266 nodes, 101 rows), and a string constant costs next to nothing to load.
 * A line is parsed when it is first asked for; the caller keeps what it parsed.
 */

/** Where each line of `text` starts, and one more entry, past the end, closing the last line. */
export function lineStarts(text: string): number[] {
  const at = [0];
  for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n", nl + 1)) at.push(nl + 1);
  at.push(text.length + 1);
  return at;
}

/** Line `i` of `text` (`starts`: its {@link lineStarts}), parsed. */
export function lineAt(text: string, starts: readonly number[], i: number): unknown {
  return JSON.parse(text.slice(starts[i], starts[i + 1] - 1));
}

/** The line of `text` that begins with `prefix`, parsed, or undefined when none does. */
export function lineStartingWith(text: string, prefix: string): unknown {
  let at = 0;
  if (!text.startsWith(prefix)) {
    at = text.indexOf("\n" + prefix) + 1;
    if (at === 0) return undefined;
  }
  const end = text.indexOf("\n", at);
  return JSON.parse(text.slice(at, end < 0 ? text.length : end));
}
