// One object from another plus some members, built the way V8 keeps fast.

/**
 * `{ ...base, ...members }` for objects of our own making (options, outcomes, entries). V8 (Node
 * 20, and the Electron of VS Code) builds an object literal that spreads first and then names
 * members by making the object a new shape at every call, which `Object.assign({}, base, members)`
 * does not (docs/performance.md). Lint refuses the literal in the per-spot code (eslint.config.mjs). Not for data
 * read from outside: Object.assign takes a member named "__proto__" as the new object's prototype.
 */
export function withMembers<Base extends object, Members extends object>(base: Base, members: Members): WithMembers<Base, Members> {
  return Object.assign({}, base, members) as unknown as WithMembers<Base, Members>;
}

/** What the spread gives, each member of a union on its own. */
export type WithMembers<Base, Members> = Base extends unknown ? Omit<Base, keyof Members> & Members : never;
