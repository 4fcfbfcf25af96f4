/**
 * What registering a tool, resource, resource template or prompt returns: a handle that
 * removes it when called (as before), and takes it off the lists for a while
 * (`disable` / `enable`) or changes its definition or handler in place (`update`), as
 * the official SDK's `RegisteredTool` and its kin do.
 *
 * Spec: 2025-11-25 `server/tools`, `server/resources`, `server/prompts` (List Changed
 * Notification): each change to what the server lists is announced, as a registration
 * is.
 *
 * Theory of operation. {@link registration} is given where the entry lives (`place`:
 * how to put it in its registry and take it out, and the list to announce) and how to
 * make an entry from a configuration and a handler (`make`, which checks as the
 * registration did and throws what it throws). A disabled entry is out of its registry,
 * so it is neither listed nor served (a call gets the error of an unknown name), and
 * another may take its name meanwhile; `enable` makes it anew, last in the lists, and
 * throws if the name is taken, as registering it again would. `update` makes the entry
 * anew from the configuration merged key by key with the changes, in the place of the old
 * one in list order, so a mistake throws and leaves the registration as it was. Once
 * removed, the handle does nothing more: `enable` and `update` throw.
 */

/** How a registration's entry goes in and out of its registry. */
export interface Place<E> {
  /** Puts `entry` in the registry, last. */
  add(entry: E): void;
  /** Takes `entry` out of the registry, if it is there. */
  drop(entry: E): void;
  /** Puts `next` where `entry` is, in the same place in list order. */
  replace(entry: E, next: E): void;
  /** Announces that the list changed (once per change the handle makes). */
  changed(): void;
}

/** The handle of one registration. Calling it removes the registration (idempotent). */
export interface Registration<C extends object, H> {
  (): void;
  /** Removes the registration, as calling the handle does. */
  remove(): void;
  /** Takes it off the list and stops serving it, until {@link Registration.enable}. */
  disable(): void;
  /** Lists and serves it again; throws if its name was taken meanwhile, or it was removed. */
  enable(): void;
  /** False while disabled, and once removed. */
  readonly enabled: boolean;
  /**
   * Changes its configuration (merged key by key over the one it has: `{ description }`
   * keeps the rest; `undefined` drops a key) and its handler. Throws what registering
   * would, leaving it as it was. A disabled registration stays disabled.
   */
  update(changes: { config?: Partial<C> | undefined; handler?: H | undefined }): void;
}

/**
 * The handle of an entry just added to its place, made by `make` from `config` and
 * `handler`. `make(config, handler)` makes a new entry (refused if its name is taken);
 * `make(config, handler, previous)` one to take the place of `previous` (its name free
 * to it, its sequence number kept).
 */
export function registration<C extends object, H, E>(place: Place<E>, make: (config: C, handler: H, previous?: E) => E, entry: E, config: C, handler: H): Registration<C, H> {
  let current = entry;
  let state: "enabled" | "disabled" | "removed" = "enabled";
  const live = (what: string): void => {
    if (state === "removed") throw new TypeError(`cannot ${what} a registration that was removed`);
  };
  const remove = (): void => {
    if (state === "enabled") {
      place.drop(current);
      place.changed();
    }
    state = "removed";
  };
  // `enabled` is a getter: Object.assign would copy its value once.
  Object.defineProperty(remove, "enabled", { get: () => state === "enabled" });
  return Object.assign(remove as typeof remove & { readonly enabled: boolean }, {
    remove,
    disable(): void {
      if (state !== "enabled") return;
      place.drop(current);
      state = "disabled";
      place.changed();
    },
    enable(): void {
      live("enable");
      if (state === "enabled") return;
      // Made anew: it comes back last in the lists, after what was registered meanwhile
      // (a list is in registration order), and is refused if its name was taken.
      current = make(config, handler);
      place.add(current);
      state = "enabled";
      place.changed();
    },
    update(changes: { config?: Partial<C> | undefined; handler?: H | undefined } = {}): void {
      live("update");
      // The SDK's update takes the fields themselves ({ description, callback, enabled }):
      // read as ours they would change nothing, silently.
      const given = changes ?? {};
      const stray = Object.keys(given).filter((k) => k !== "config" && k !== "handler");
      if (stray.length > 0) throw new TypeError(`update takes { config, handler } (got ${stray.join(", ")}): update({ config: { description }, handler }), and disable() / enable() for enabled`);
      if (given.config === undefined && given.handler === undefined) return;
      const nextConfig = { ...config, ...given.config } as C;
      const nextHandler = given.handler ?? handler;
      const next = make(nextConfig, nextHandler, current);
      if (state === "enabled") {
        place.replace(current, next);
        place.changed();
      }
      current = next;
      config = nextConfig;
      handler = nextHandler;
    },
  });
}
