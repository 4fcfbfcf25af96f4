// The compiled CLI in a child process, for the tests that run it as a user does: each
// waits for what the process prints (no sleeps).
import { after } from "node:test";
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The compiled bin of the build these tests belong to. */
export const BIN = fileURLToPath(new URL("../../src/cli/bin.js", import.meta.url));

export interface Run {
  child: ChildProcess;
  code: Promise<number | null>;
  stdout(): string;
  stderr(): string;
  /** Resolves with stderr once it matches `re`. */
  waitErr(re: RegExp): Promise<RegExpMatchArray>;
  /** Resolves with stdout once it holds `n` lines. */
  waitLines(n: number): Promise<string[]>;
  /** Resolves with stdout once it matches `re`. */
  waitOut(re: RegExp): Promise<RegExpMatchArray>;
}

/** Every child still running when the tests end (a failed assertion) is killed, so the run ends. */
export const running = new Set<ChildProcess>();
after(() => running.forEach((c) => c.kill("SIGKILL")));

/** Runs the compiled CLI (or `script`) with `args`; `input`, when given, is all of its stdin. */
export function cli(args: string[], options: { script?: string; input?: string | Buffer } = {}): Run {
  const child = spawn(process.execPath, [options.script ?? BIN, ...args], { stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  let err = "";
  const waiters: (() => void)[] = [];
  const poke = () => waiters.splice(0).forEach((w) => w());
  child.stdout!.setEncoding("utf8").on("data", (c: string) => ((out += c), poke()));
  child.stderr!.setEncoding("utf8").on("data", (c: string) => ((err += c), poke()));
  running.add(child);
  const code = new Promise<number | null>((resolve) => child.on("close", (c) => (running.delete(child), poke(), resolve(c))));
  if (options.input !== undefined) child.stdin!.end(options.input);
  const until = <T>(get: () => T | undefined): Promise<T> =>
    new Promise((resolve, reject) => {
      const check = () => {
        const v = get();
        if (v !== undefined) return resolve(v);
        if (child.exitCode !== null) return reject(new Error(`exited ${child.exitCode}; stdout ${out}; stderr ${err}`));
        waiters.push(check);
      };
      check();
    });
  return {
    child,
    code,
    stdout: () => out,
    stderr: () => err,
    waitErr: (re) => until(() => err.match(re) ?? undefined),
    waitLines: (n) => until(() => (out.split("\n").length > n ? out.split("\n").slice(0, n) : undefined)),
    waitOut: (re) => until(() => out.match(re) ?? undefined),
  };
}
