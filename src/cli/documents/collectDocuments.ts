// The documents of one run, listed before any is read in full (so the progress bar has a total and
// "no documents" is known before anything is sent). Only paths are held, never texts. A media
// folder named on the command line stands for the document it belongs to.
import { isAbsolute, relative, resolve } from 'node:path';
import { CliError } from '../exit';
import { documentOfMediaFolder } from '../import/mediaPlugin';
import type { Outcome } from '../output/records';
import { findDocuments } from './findDocuments';

export interface CollectedDocuments {
  /** Absolute paths, in the order found. */
  files: string[];
  /** Documents the walk found without a media folder beside them (the import does not look again). */
  withoutMediaFolder: Set<string>;
  /** Folders that could not be read: reported as failures of the run. */
  unreadable: Outcome[];
}

export async function collectDocuments(paths: readonly string[], cwd: string, note: (line: string) => void, signal?: AbortSignal): Promise<CollectedDocuments> {
  const targets: string[] = [];
  for (const given of paths) {
    const document = await documentOfMediaFolder(resolve(cwd, given));
    targets.push(document ?? given);
  }
  const files: string[] = [];
  const withoutMediaFolder = new Set<string>();
  const unreadable: Outcome[] = [];
  for await (const found of findDocuments(targets, cwd, signal)) {
    switch (found.kind) {
      case 'document':
        files.push(found.path);
        if (found.mediaFolder === false) withoutMediaFolder.add(found.path);
        break;
      case 'unreadable':
        unreadable.push({ file: displayPath(found.path, cwd), status: 'failed', ok: false, reason: found.message, failure: 'unreadable', findings: [] });
        break;
      case 'passedOver':
        note(`${displayPath(found.path, cwd)}: passed over, ${found.message}`);
        break;
      case 'empty':
        note(`${displayPath(found.path, cwd)}: no spot documents in this folder (looked for *.spot.json, and .json files with "data": {"type": "spots"}).`);
        break;
    }
  }
  if (files.length === 0 && unreadable.length === 0) {
    throw new CliError(`No spot documents found in ${paths.map((path) => `"${path}"`).join(', ')}: name them *.spot.json, or give them "data": {"type": "spots"}.`);
  }
  return { files, withoutMediaFolder, unreadable };
}

/** Paths inside the current folder are shown relative to it, the way editors and CI annotate them. */
export function displayPath(path: string, cwd: string): string {
  const inside = relative(cwd, path);
  return inside && !inside.startsWith('..') && !isAbsolute(inside) ? inside : path;
}
