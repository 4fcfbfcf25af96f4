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
/** A character of RFC 9110 §11.2 token68 (RFC 6750 §2.1 b64token), `=` padding aside. */
const isToken68Char = (c: string): boolean => (c >= "A" && c <= "Z") || (c >= "a" && c <= "z") || (c >= "0" && c <= "9") || (c.length === 1 && "-._~+/".includes(c));

/** Whether `s` is a b64token (RFC 6750 §2.1): what a Bearer credential may be, so what an access token must be to travel in a header. */
export function isB64Token(s: string): boolean {
  let i = 0;
  while (i < s.length && isToken68Char(s[i])) i++;
  if (i === 0) return false;
  while (i < s.length && s[i] === "=") i++;
  return i === s.length;
}

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
  // A token68 credential after a scheme (`Negotiate abc==`, `Negotiate a/b`) stands alone
  // before a comma or the end; skipped, so that the challenges after it are still read.
  const skipToken68 = () => {
    let j = i;
    while (j < s.length && isToken68Char(s[j])) j++;
    if (j === i) return;
    while (j < s.length && s[j] === "=") j++;
    while (j < s.length && (s[j] === " " || s[j] === "\t")) j++;
    if (j === s.length || s[j] === ",") i = j;
  };
  let current: AuthChallenge | undefined;
  while (i < s.length) {
    skipSpace();
    if (s[i] === ",") { i++; continue; }
    const word = readToken();
    if (!word) break;
    skipSpace();
    if (s[i] === "=" && current) {
      // An auth-param of the current challenge.
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
    // A new challenge begins with its scheme, perhaps followed by a token68 credential.
    current = { scheme: word.toLowerCase(), params: Object.create(null) as Record<string, string> };
    out.push(current);
    skipToken68();
  }
  return out;
}

/** The `Bearer` challenge of a header, if any. */
export function bearerChallenge(header: string | null | undefined): AuthChallenge | undefined {
  return parseWwwAuthenticate(header).find((c) => c.scheme === "bearer");
}

/**
 * Formats a `Bearer` challenge. Values are quoted and escaped; a value holding CR, LF or
 * any other control character is dropped rather than allowed to split the header, and so
 * is one with a character outside ASCII: RFC 6750 §3 allows only printable ASCII in
 * `scope` and `error_description`, and a header value above U+00FF makes `new Response`
 * throw (a scope built from a tool's name, `tools:天気`, failed the whole request).
 */
export function formatBearerChallenge(params: Record<string, string | undefined>): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || /[^\x20-\x7e]/.test(value)) continue;
    parts.push(`${name}="${value.replace(/["\\]/g, (c) => `\\${c}`)}"`);
  }
  return parts.length ? `Bearer ${parts.join(", ")}` : "Bearer";
}
