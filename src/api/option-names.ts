/**
 * Misspelled option names, refused where an application builds something.
 *
 * Spec: none; the API's own contract. TypeScript flags an unknown option at compile time,
 * but JavaScript callers (and `as any` casts) pass it through, and an option that is
 * silently ignored fails far from the typo: `httpClientTransport(url, { header: { … } })`
 * sent no `Authorization`, and every request got 401; `handlers: { sampler }` declared no
 * `sampling`, and every server request for it got `-32601`.
 *
 * Theory of operation. A name the object does not know is refused only when it is within
 * two edits of a name it does know (one for a name of up to six letters; ignoring case),
 * which is how typos look: `header`, `maxMessageByte`, `openGETStream` ({@link misspelled}
 * says what is never taken for one). Any other unknown name is left alone, so an option
 * from a newer release, or an application's own field on a shared object, does not
 * break. Each list of known names is checked against its interface at compile time
 * ({@link knownNames}), so an option added to an interface cannot be missing from it.
 */

/**
 * The names of `T`'s options, as a list that must hold every one: a name missing from
 * `names` is a compile error at the call (`satisfies` alone would allow a partial list).
 * Call it as `/* @__PURE__ *\/ knownNames<T>()([...])`: a module-level call a bundler
 * cannot prove pure would keep its module in every bundle that imports anything beside it.
 */
export function knownNames<T>() {
  return <const N extends readonly (keyof T & string)[]>(names: N & MissingNone<T, N>): readonly string[] => names;
}

/** `unknown` when `N` names every option of `T`, else an object type naming the ones missing (so the compile error says which). */
type MissingNone<T, N extends readonly string[]> = [Exclude<keyof T & string, N[number]>] extends [never] ? unknown : { missingOptionNames: Exclude<keyof T & string, N[number]> };

/** Throws a `TypeError` for an own key of `given` that looks like a misspelling of one of `known` (`what` names the options object). */
export function refuseMisspelledOptions(what: string, given: object, known: readonly string[]): void {
  for (const key of Object.keys(given)) {
    const meant = misspelled(key, known);
    // Given beside the name it resembles, it is some other field, not a typo of that name.
    if (meant !== undefined && (given as Record<string, unknown>)[meant] === undefined) {
      throw new TypeError(`${what}: unknown option ${JSON.stringify(key)}; did you mean ${JSON.stringify(meant)}?`);
    }
  }
}

/**
 * The known name `key` looks like a misspelling of, or undefined. Not a key that is known,
 * a private-looking `_field` (a class instance passed as options), or one that holds a known
 * name whole (`unsubscribe`, `sessions`: another word built on it). Two edits make a short
 * name into too many others (`mode` and `modern`): one up to six letters, two beyond.
 */
export function misspelled(key: string, known: readonly string[]): string | undefined {
  if (known.includes(key) || key.startsWith("_")) return undefined;
  const k = key.toLowerCase();
  return known.find((name) => {
    const n = name.toLowerCase();
    return !(k.length > n.length && k.includes(n)) && editsAtMost(k, n, n.length <= 6 ? 1 : 2);
  });
}

/**
 * A refused option value as an error message shows it: JSON for text and objects (`"100"`,
 * `[]`), a number as written (JSON prints `NaN` and `Infinity` as `null`, which names no
 * value anyone passed). Never throws, whatever the value.
 */
export function shownValue(v: unknown): string {
  if (typeof v !== "object" && typeof v !== "string") return String(v);
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return "a value with no JSON form";
  }
}

/** True when `a` becomes `b` with at most `max` insertions, deletions or substitutions (bounded Levenshtein). */
function editsAtMost(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  // One row of the edit-distance table at a time; a row whose least cell is over max ends it.
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let least = i;
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (row[j] < least) least = row[j];
    }
    if (least > max) return false;
    prev = row;
  }
  return prev[b.length] <= max;
}

/**
 * `options` laid over `defaults`, as `{ ...defaults, ...options }` but that an option given
 * as `undefined` keeps its default, as a left-out one does (a caller forwarding an option it
 * may not have: `{ batchWrites: true, ...{ batchWrites: undefined } }` turned batching off).
 * Every other field of `options` is kept as given, `undefined` ones too, so a misspelled
 * name still reaches the misspelling check of whatever takes the result.
 */
export function withDefaults<D extends object, T extends object>(defaults: D, options: T | undefined): D & T {
  const out: Record<string, unknown> = { ...options };
  for (const [k, v] of Object.entries(defaults)) if (out[k] === undefined) out[k] = v;
  return out as D & T;
}

/**
 * Throws a RangeError naming the first of `keys` whose value is given but is no number
 * >= 0 (Infinity: no bound): text or NaN would be misread, not refused (`maxStallMs: NaN`
 * closed a stream transport at its first stall, a millisecond later).
 */
export function refuseMisreadNumbers(who: string, options: object, keys: readonly string[]): void {
  for (const key of keys) {
    const v = (options as Record<string, unknown>)[key];
    if (v !== undefined && !(typeof v === "number" && v >= 0)) throw new RangeError(`${who}: ${key} must be a number >= 0 (got ${shownValue(v)})`);
  }
}
