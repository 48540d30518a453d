// The sandbox's public entry: a strict local implementation of the service interface on loopback,
// for tests, the command line (cli.ts) and the extension's built-in sandbox profile.
export { startSandbox } from './sandbox';
export { validateFaults } from './faults';
export * from './types';
