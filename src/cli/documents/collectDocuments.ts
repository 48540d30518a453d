// The documents of one run, listed before any is read in full (so the progress bar has a total and
// "no documents" is known before anything is sent). Only paths are held, never texts. A media
// folder named on the command line stands for the document it belongs to. A topic definition file
// named on it is no spot document: one of the run's definitions is checked, and reported, with
// them (projectTopics.ts), once; another is passed over with a note saying which folder the run
// reads its definitions from.
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { CliError } from '../exit';
import { documentOfMediaFolder } from './mediaFolderDocument';
import type { Outcome } from '../output/records';
import { findDocuments } from './findDocuments';

export interface CollectedDocuments {
  /** Absolute paths, in the order found. */
  files: string[];
  /** By the index of `files`: true when the walk found no media folder beside the document (the import does not look again). */
  withoutMediaFolder: boolean[];
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

export async function collectDocuments(
  paths: readonly string[],
  cwd: string,
  note: (line: string) => void,
  topics: RunTopicFiles,
  signal?: AbortSignal,
): Promise<CollectedDocuments> {
  const targets: string[] = [];
  for (const given of paths) {
    const document = await documentOfMediaFolder(resolve(cwd, given));
    targets.push(document ?? given);
  }
  const files: string[] = [];
  const withoutMediaFolder: boolean[] = [];
  const unreadable: Outcome[] = [];
  let definitions = 0;
  await findDocuments(
    targets,
    cwd,
    (found) => {
      switch (found.kind) {
        case 'document':
          files.push(found.path);
          withoutMediaFolder.push(found.mediaFolder === false);
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
    },
    signal,
  );
  if (files.length === 0 && unreadable.length === 0 && definitions === 0) {
    throw new CliError(
      `No spot documents found in ${paths.map((path) => `"${path}"`).join(', ')}: name them *.spot.json, or give them "data": {"type": "spots"}.`,
    );
  }
  return { files, withoutMediaFolder, unreadable };
}

function describeTopicsFolder(topics: RunTopicFiles, cwd: string): string {
  if (!topics.folder) return 'this run has no topic definitions (no spot-topics/ folder above the current one; --topics-folder names one)';
  return `this run's topic definitions are those of ${displayPath(topics.folder, cwd)} (--topics-folder names another folder)`;
}

/** Paths inside the current folder are shown relative to it, the way editors and CI annotate them. */
export function displayPath(path: string, cwd: string): string {
  // What path.relative gives, without its work, for the usual case (every document of a folder
  // walk): a path that starts with the folder and a separator, its rest plain names.
  const rest = path.length > cwd.length + 1 && path.startsWith(cwd) ? path.slice(cwd.length + (cwd.endsWith(sep) ? 0 : 1)) : undefined;
  if (rest !== undefined && (cwd.endsWith(sep) || path[cwd.length] === sep) && isAbsolute(cwd) && !rest.startsWith('..') && !NOT_PLAIN.test(rest)) return rest;
  const inside = relative(cwd, path);
  return inside && !inside.startsWith('..') && !isAbsolute(inside) ? inside : path;
}

/** A rest that path.relative might spell otherwise: an empty, . or .. segment, or either separator (the folder's own spelling decides). */
const NOT_PLAIN = /(^|[\\/])\.{0,2}([\\/]|$)/;
