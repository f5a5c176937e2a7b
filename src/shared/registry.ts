// One registry for what users name in task files and options (metrics, getters, agents): define, get, names, and a
// "did you mean" for a name it does not know. A definition can have a variant for one task format (GUI-OS's own
// compare_csv beside OSWorld's): the variant is a field of the entry, never part of its name.
import { closeNames } from './close-names.ts';

export class Registry<T> {
  /** What the entries are, for messages: "metric", "getter", "agent". */
  readonly kind: string;
  readonly #plain = new Map<string, T>();
  readonly #variants = new Map<string, Map<string, T>>();

  constructor(kind: string) {
    this.kind = kind;
  }

  /** Registers `value` as `name`; with `variant`, only for that format (the plain entry still serves the others). */
  define(name: string, value: T, variant?: string): void {
    if (variant === undefined) {
      this.#plain.set(name, value);
      return;
    }
    const variants = this.#variants.get(name) ?? new Map<string, T>();
    variants.set(variant, value);
    this.#variants.set(name, variants);
  }

  /** The entry for `name`: `variant`'s own when it has one, else the plain one. */
  get(name: string, variant?: string): T | undefined {
    return (variant === undefined ? undefined : this.#variants.get(name)?.get(variant)) ?? this.#plain.get(name);
  }

  /** Whether `variant` has its own entry for `name`; without a variant, whether `name` is defined at all. */
  has(name: string, variant?: string): boolean {
    if (variant !== undefined) return this.#variants.get(name)?.has(variant) ?? false;
    return this.#plain.has(name) || this.#variants.has(name);
  }

  /** Every defined name, plain or variant-only, in definition order. */
  names(): string[] {
    return [...new Set([...this.#plain.keys(), ...this.#variants.keys()])];
  }

  /** Defined names close to `name`, closest first. */
  suggest(name: string, max = 5): string[] {
    return closeNames(name, this.names(), max);
  }

  /** `; did you mean "a" or "b"?` for a name close to defined ones, else nothing: the tail of an error message. */
  didYouMean(name: string): string {
    const close = this.suggest(name);
    return close.length ? `; did you mean ${close.map((n) => `"${n}"`).join(' or ')}?` : '';
  }

  /** `unknown metric "x"`, with the did-you-mean when a defined name is close. */
  unknownMessage(name: string): string {
    return `unknown ${this.kind} "${name}"${this.didYouMean(name)}`;
  }
}
