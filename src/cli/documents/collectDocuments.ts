// The documents of one run, listed before any is read in full (so the progress bar has a total and
// "no documents" is known before anything is sent). Only paths are held, never texts. A media
// folder named on the command line stands for the document it belongs to. A topic definition file
// named on it is no spot document: one of the run's definitions is checked, and reported, with
// them (projectTopics.ts), once; another is passed over with a note saying which folder the run
// reads its definitions from.
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

/** The run's topic definitions, as far as naming them on the command line goes. */
export interface RunTopicFiles {
  /** The folder they are read from, if there is one. */
  folder?: string;
  /** Every definition file read from it (absolute paths). */
  files: ReadonlySet<string>;
}

export async function collectDocuments(paths: readonly string[], cwd: string, note: (line: string) => void, topics: RunTopicFiles, signal?: AbortSignal): Promise<CollectedDocuments> {
  const targets: string[] = [];
  for (const given of paths) {
    const document = await documentOfMediaFolder(resolve(cwd, given));
    targets.push(document ?? given);
  }
  const files: string[] = [];
  const withoutMediaFolder = new Set<string>();
  const unreadable: Outcome[] = [];
  let definitions = 0;
  for await (const found of findDocuments(targets, cwd, signal)) {
    switch (found.kind) {
      case 'document':
        files.push(found.path);
        if (found.mediaFolder === false) withoutMediaFolder.add(found.path);
        break;
      case 'unreadable':
        unreadable.push({ file: displayPath(found.path, cwd), status: 'failed', ok: false, reason: found.message, failure: 'unreadable', findings: [] });
        break;
      case 'topicDefinition':
        if (topics.files.has(found.path)) definitions++;
        else note(`${displayPath(found.path, cwd)}: passed over, a topic definition file is not a spot document; ${describeTopicsFolder(topics, cwd)}.`);
        break;
      case 'passedOver':
        note(`${displayPath(found.path, cwd)}: passed over, ${found.message}`);
        break;
      case 'empty':
        note(`${displayPath(found.path, cwd)}: no spot documents in this folder (looked for *.spot.json, and .json files with "data": {"type": "spots"}).`);
        break;
    }
  }
  if (files.length === 0 && unreadable.length === 0 && definitions === 0) {
    throw new CliError(`No spot documents found in ${paths.map((path) => `"${path}"`).join(', ')}: name them *.spot.json, or give them "data": {"type": "spots"}.`);
  }
  return { files, withoutMediaFolder, unreadable };
}

function describeTopicsFolder(topics: RunTopicFiles, cwd: string): string {
  if (!topics.folder) return 'this run has no topic definitions (no spot-topics/ folder above the current one; --topics-folder names one)';
  return `this run's topic definitions are those of ${displayPath(topics.folder, cwd)} (--topics-folder names another folder)`;
}

/** Paths inside the current folder are shown relative to it, the way editors and CI annotate them. */
export function displayPath(path: string, cwd: string): string {
  const inside = relative(cwd, path);
  return inside && !inside.startsWith('..') && !isAbsolute(inside) ? inside : path;
}
