// Gallery commands are called from tree nodes, from other commands ({ galleryId }), from the
// palette (nothing) and from tests: these helpers read what they were given.
import * as vscode from 'vscode';
import type { ExtensionServices } from '../../platform/services';
import type { Profile } from '../../platform/domain';
import { noActiveProfileError } from '../../platform/errors';

/** A gallery node, `{ galleryId }`, a number or a string of digits; undefined for anything else. */
export function galleryIdOf(arg: unknown): number | undefined {
  const value = arg && typeof arg === 'object' ? (arg as { galleryId?: unknown }).galleryId : arg;
  const id = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/** The profile a gallery node or `{ galleryId, profileId }` belongs to; undefined when not said. */
export function profileIdOf(arg: unknown): string | undefined {
  const value = arg && typeof arg === 'object' ? (arg as { profileId?: unknown }).profileId : undefined;
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * `{ signal }` from a caller that cancels as the progress notification's Cancel button does (a
 * test, which cannot click it); undefined for anything else.
 */
export function signalOf(arg: unknown): AbortSignal | undefined {
  const value = arg && typeof arg === 'object' ? (arg as { signal?: unknown }).signal : undefined;
  return value instanceof AbortSignal ? value : undefined;
}

/** Accepts "12" or " 12 "; anything else gets a message that says what to type. */
export function validateGalleryId(text: string): string | undefined {
  return /^\s*[1-9]\d*\s*$/.test(text) && Number.isSafeInteger(Number(text))
    ? undefined
    : vscode.l10n.t('Enter a gallery id: a positive whole number such as 12.');
}

/**
 * The active profile, right now and without building a client; throws (with Add Profile and Use
 * Local Sandbox buttons) when there is none. Commands that build a client anyway use the async
 * `activeProfile` of ../activeProfile instead.
 */
export function requireActiveProfile(services: ExtensionServices): Profile {
  const profile = services.profiles.active();
  if (!profile) throw noActiveProfileError();
  return profile;
}

/** Uris VS Code passed, keeping local files only (the upload streams from disk). */
export function fileUris(values: unknown[]): vscode.Uri[] {
  const seen = new Set<string>();
  return values
    .flatMap((value) => (Array.isArray(value) ? value : [value]))
    .filter((value): value is vscode.Uri => value instanceof vscode.Uri && value.scheme === 'file')
    .filter((uri) => !seen.has(uri.toString()) && seen.add(uri.toString()) !== undefined);
}
