/**
 * The TypeScript type of a JSON Schema's instances, read from the schema's literal type, so
 * a tool handler takes its arguments as its `inputSchema` describes them. The server checks
 * the arguments against that schema before the handler runs (2025-11-25 `server/tools`:
 * servers MUST validate all tool inputs), so the type is what the handler gets.
 *
 * Types only: nothing here runs. It reads the keywords that decide an instance's shape
 * (`const`, `enum`, `type` and its arrays, `properties` / `required`, `items`, boolean
 * schemas, and `anyOf` / `oneOf` where there is no `type`) and widens the rest to
 * {@link JsonValue}, so a keyword it does not read never narrows a type wrongly (it may
 * leave one wider than the schema allows: `minimum`, `pattern`, `allOf` are not types).
 * A schema typed wider than its literal (a `JsonSchemaObject` variable) gives `JsonValue`,
 * or `JsonObject` at a tool's root, as before. A property the schema does not name is
 * `unknown`, as JSON Schema allows it, unless `additionalProperties: false` leaves it out.
 */
import type { JsonObject, JsonValue } from "../jsonrpc/types.js";

/** Levels of nesting read before the type widens to `JsonValue` (keeps the compiler's work bounded). */
type Deeper = [never, 0, 1, 2, 3, 4, 5, 6, 7, 8];

/** The type of the instances of schema `S` (see the module comment). */
export type InstanceOf<S, D extends number = 8> = [D] extends [never]
  ? JsonValue
  : S extends true
    ? JsonValue
    : S extends false
      ? never
      : S extends { const: infer C }
        ? C
        : S extends { enum: readonly (infer E)[] }
          ? E
          : S extends { type: infer T }
            ? OfType<T extends readonly (infer U)[] ? U : T, S, D>
            : S extends { anyOf: readonly (infer A)[] }
              ? InstanceOf<A, Deeper[D]>
              : S extends { oneOf: readonly (infer O)[] }
                ? InstanceOf<O, Deeper[D]>
                : JsonValue;

/** One `type` name's instances; a name that is not a literal (a schema typed wide) gives `JsonValue`. */
type OfType<T, S, D extends number> = string extends T
  ? JsonValue
  : T extends "string"
    ? string
    : T extends "number" | "integer"
      ? number
      : T extends "boolean"
        ? boolean
        : T extends "null"
          ? null
          : T extends "array"
            ? S extends { prefixItems: unknown }
              ? JsonValue[] // a tuple's places have types of their own: not read, so left wide
              : S extends { items: infer I }
                ? InstanceOf<I, Deeper[D]>[]
                : JsonValue[]
            : T extends "object"
              ? ObjectOf<S, D>
              : JsonValue;

/** The names `required` lists; none when it is typed wide (`string[]`), so no property is taken for present. */
type RequiredNames<S> = S extends { required: readonly (infer R)[] } ? (string extends R ? never : R) : never;

/**
 * An object schema's instances: its `properties`, those `required` lists present, the others
 * optional, and (JSON Schema allows other properties unless `additionalProperties: false`)
 * any other name as `unknown`, as a handler read them before its schema was typed.
 */
type ObjectOf<S, D extends number> = S extends { properties: infer P }
  ? Flat<
      { -readonly [K in keyof P & string as K extends RequiredNames<S> ? K : never]: InstanceOf<P[K], Deeper[D]> } & {
        -readonly [K in keyof P & string as K extends RequiredNames<S> ? never : K]?: InstanceOf<P[K], Deeper[D]>;
      } & (S extends { additionalProperties: false } ? unknown : { [key: string]: unknown })
    >
  : { [key: string]: JsonValue };

/** One object type out of an intersection, so editors show `{ n: number; label?: string }`. */
type Flat<T> = T extends infer O ? { [K in keyof O]: O[K] } : never;

/**
 * A tool's arguments, as its `inputSchema` `S` describes them: an object type, or
 * `JsonObject` when the schema says nothing the type can read (none given, or one typed wide).
 */
export type ArgumentsOf<S> = S extends { properties: object } ? ObjectOf<S, 8> : JsonObject;

/**
 * A prompt's arguments, as its `arguments` list `L` declares them: a string for each
 * `required: true`, an optional string for the others, and any other name a string, as a
 * client may send more (`Record<string, string>`, what a getter took before, for a list
 * typed wide).
 */
export type PromptArgumentsOf<L> = L extends readonly { name: infer N }[]
  ? string extends N
    ? Record<string, string>
    : Flat<
        { [A in L[number] as A extends { required: true } ? A["name"] & string : never]: string } & {
          [A in L[number] as A extends { required: true } ? never : A["name"] & string]?: string;
        } & { [key: string]: string }
      >
  : Record<string, string>;
