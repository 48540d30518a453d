// Fault injection: a share of requests answered 429 or 503, or cut off, plus added latency.
// One uniform draw per request decides its fate, so each rate is honoured on its own and a
// seed makes a test's sequence the same on every run.
import type { SandboxFaults, SandboxRequestKind } from './types';

export type FaultOutcome = '429' | '503' | 'drop' | undefined;

const KINDS: readonly SandboxRequestKind[] = ['token', 'import', 'gallery', 'upload'];
const DEFAULT_KINDS: readonly SandboxRequestKind[] = ['import', 'gallery', 'upload'];
const KEYS = new Set(['rate429', 'rate503', 'rateDrop', 'retryAfterSeconds', 'latencyMs', 'appliesTo', 'seed']);

/** Checks faults from options, flags or a JSON request; throws a TypeError naming the bad member. */
export function validateFaults(value: unknown): SandboxFaults {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new TypeError('faults must be an object');
  const input = value as Record<string, unknown>;
  for (const key of Object.keys(input)) {
    if (!KEYS.has(key)) throw new TypeError(`unknown fault setting "${key}" (known: ${[...KEYS].join(', ')})`);
  }
  const faults: SandboxFaults = {};
  for (const key of ['rate429', 'rate503', 'rateDrop'] as const) {
    const rate = input[key];
    if (rate === undefined) continue;
    if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1)) throw new TypeError(`${key} must be a number from 0 to 1`);
    faults[key] = rate;
  }
  if ((faults.rate429 ?? 0) + (faults.rate503 ?? 0) + (faults.rateDrop ?? 0) > 1 + 1e-9) {
    throw new TypeError('rate429 + rate503 + rateDrop must not exceed 1');
  }
  for (const key of ['retryAfterSeconds', 'latencyMs'] as const) {
    const amount = input[key];
    if (amount === undefined) continue;
    if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0) throw new TypeError(`${key} must be a number of at least 0`);
    faults[key] = amount;
  }
  if (input.appliesTo !== undefined) {
    const kinds = input.appliesTo;
    if (!Array.isArray(kinds) || !kinds.every((kind) => KINDS.includes(kind as SandboxRequestKind))) {
      throw new TypeError(`appliesTo must be a list of ${KINDS.join(', ')}`);
    }
    faults.appliesTo = [...new Set(kinds as SandboxRequestKind[])];
  }
  if (input.seed !== undefined) {
    if (typeof input.seed !== 'number' || !Number.isInteger(input.seed)) throw new TypeError('seed must be an integer');
    faults.seed = input.seed;
  }
  return faults;
}

export class FaultInjector {
  private faults: SandboxFaults = {};
  private random: () => number = Math.random;

  constructor(faults: SandboxFaults = {}) {
    this.set(faults);
  }

  /** Replaces the settings; a seed restarts the draw sequence. */
  set(faults: SandboxFaults): void {
    this.faults = validateFaults(faults);
    this.random = this.faults.seed === undefined ? Math.random : mulberry32(this.faults.seed);
  }

  get current(): SandboxFaults {
    return { ...this.faults, appliesTo: this.faults.appliesTo ? [...this.faults.appliesTo] : undefined };
  }

  appliesTo(kind: SandboxRequestKind): boolean {
    return (this.faults.appliesTo ?? DEFAULT_KINDS).includes(kind);
  }

  get latencyMs(): number {
    return this.faults.latencyMs ?? 0;
  }

  get retryAfterSeconds(): number {
    return this.faults.retryAfterSeconds ?? 0;
  }

  /** Decides one request's fate. Draws nothing while faults are off, so a seed is not consumed. */
  draw(): FaultOutcome {
    const { rate429 = 0, rate503 = 0, rateDrop = 0 } = this.faults;
    if (rate429 + rate503 + rateDrop === 0) return undefined;
    const roll = this.random();
    if (roll < rate429) return '429';
    if (roll < rate429 + rate503) return '503';
    if (roll < rate429 + rate503 + rateDrop) return 'drop';
    return undefined;
  }
}

/** A small, well-known seeded generator (uniform in [0, 1)); quality is ample for fault draws. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
