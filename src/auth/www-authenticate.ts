/**
 * `WWW-Authenticate` challenges (RFC 9110 §11.6.1, RFC 6750 §3, RFC 9728 §5.1).
 *
 * Pure string handling, shared by the resource server (which writes challenges) and the
 * OAuth client (which reads them). Parsing is a small hand-written scanner rather than a
 * regular expression so that no pattern is ever built from, or backtracks on, peer input.
 */

/** One challenge: `Bearer realm="x", scope="a b"` → `{ scheme: "bearer", params: {...} }`. */
export interface AuthChallenge {
  /** The auth scheme, lower-cased (schemes are case-insensitive). */
  scheme: string;
  /** The auth-params, names lower-cased, values unquoted. */
  params: Record<string, string>;
}

const isTokenChar = (c: string): boolean => c > " " && c < "\x7f" && !'"(),/:;<=>?@[\\]{}'.includes(c);

/**
 * Parses a `WWW-Authenticate` value into its challenges. Malformed input never throws:
 * the scanner stops at the first character it cannot place and returns what it has.
 */
export function parseWwwAuthenticate(header: string | null | undefined): AuthChallenge[] {
  const out: AuthChallenge[] = [];
  if (!header) return out;
  const s = header;
  let i = 0;
  const skipSpace = () => { while (i < s.length && (s[i] === " " || s[i] === "\t")) i++; };
  const readToken = () => { const start = i; while (i < s.length && isTokenChar(s[i])) i++; return s.slice(start, i); };
  let current: AuthChallenge | undefined;
  while (i < s.length) {
    skipSpace();
    if (s[i] === ",") { i++; continue; }
    const word = readToken();
    if (!word) break;
    skipSpace();
    if (s[i] === "=" && current) {
      // An auth-param of the current challenge (or token68 padding, which we ignore).
      i++;
      skipSpace();
      let value = "";
      if (s[i] === '"') {
        i++;
        while (i < s.length && s[i] !== '"') {
          if (s[i] === "\\" && i + 1 < s.length) i++;
          value += s[i++];
        }
        i++; // closing quote
      } else {
        value = readToken();
      }
      current.params[word.toLowerCase()] = value;
      skipSpace();
      if (s[i] === ",") i++;
      continue;
    }
    // A new challenge begins with its scheme. (A token68 credential after the scheme,
    // `Bearer abc==`, parses as a harmless empty param: nothing here reads it.)
    current = { scheme: word.toLowerCase(), params: Object.create(null) as Record<string, string> };
    out.push(current);
  }
  return out;
}

/** The `Bearer` challenge of a header, if any. */
export function bearerChallenge(header: string | null | undefined): AuthChallenge | undefined {
  return parseWwwAuthenticate(header).find((c) => c.scheme === "bearer");
}

/**
 * Formats a `Bearer` challenge. Values are quoted and escaped; a value holding CR, LF or
 * any other control character is dropped rather than allowed to split the header.
 */
export function formatBearerChallenge(params: Record<string, string | undefined>): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || /[\x00-\x1f\x7f]/.test(value)) continue;
    parts.push(`${name}="${value.replace(/["\\]/g, (c) => `\\${c}`)}"`);
  }
  return parts.length ? `Bearer ${parts.join(", ")}` : "Bearer";
}
