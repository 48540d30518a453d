// A command's job as the engine's options: the import's (streamImport) and the check's that sends
// nothing (checkSpots: --dry-run, validate), with the project's rules as the core's topic rules.
import type { ImportCheckOptions, ImportRunOptions, TopicRules } from '../../core';
import type { DocumentRules } from '../documents/documentRules';
import type { ImportJob } from './importRunner';
import { join } from 'node:path';
import { PhotoFetcher, type FetchHeader } from '../../core/media/remote/photoFetcher';
import type { ResolvedMapping } from '../../core/rows';
import { CliError, EXIT } from '../exit';

/** The project's rules as the core's topic rules (the engine's options, validate's check). */
export function topicRulesOf(rules: DocumentRules): TopicRules {
  return {
    topics: rules.topics,
    ...(rules.topic !== undefined ? { topic: { topicId: rules.topic, owner: 'this project', setIn: 'the "topic" of spot-import.json or --topic' } } : {}),
  };
}

/** The check of a dry run: the import's rules, media as the import would take them, nothing sent. */
export function checkOptions(job: ImportJob): ImportCheckOptions {
  return {
    concurrency: job.concurrency,
    media: job.media.upload,
    ...(job.media.acceptedTypes ? { acceptedTypes: job.media.acceptedTypes } : {}),
    ...topicRulesOf(job.rules),
    describePath: job.display,
    signal: job.signals.stop,
  };
}

/**
 * What fetches the photos a table gives by web address: into .spot-import/downloads/, with the
 * login headers its mapping asks for read from the environment. A mapping may come from anyone
 * (a cloned repository): it names a variable and a host, so only a variable the person named with
 * its host (--photo-login VAR@host) is read (else any secret of the environment could go to any host). A header whose
 * variable is not named, or not set, stops the run before anything is sent.
 */
export function photoFetcher(
  run: { journalDir: string; refresh: boolean; acceptedTypes?: readonly string[]; photoLogins: readonly string[] },
  mapping: ResolvedMapping,
): PhotoFetcher {
  const headers: FetchHeader[] = [];
  for (const media of mapping.media) {
    for (const header of media.headers ?? []) {
      // The variable with its host: a mapping changed later cannot send an approved secret elsewhere.
      if (!run.photoLogins.includes(`${header.env}@${header.host}`)) {
        throw new CliError(
          `The mapping's media "${media.field}" would send the environment variable ${header.env} to ${header.host} as its ${header.name} header. A mapping may come from anyone: if that is what you want, add --photo-login ${header.env}@${header.host}, then run again.`,
          EXIT.usage,
        );
      }
      const value = process.env[header.env];
      if (!value) {
        throw new CliError(
          `The mapping's media "${media.field}" sends the header ${header.name} with the value of the environment variable ${header.env}, which is not set: set it (export ${header.env}=…), then run again.`,
          EXIT.usage,
        );
      }
      headers.push({ name: header.name, value, ...(header.host ? { host: header.host } : {}), source: `the environment variable ${header.env}` });
    }
  }
  return new PhotoFetcher({
    cacheDir: join(run.journalDir, 'downloads'),
    headers,
    refresh: run.refresh,
    ...(run.acceptedTypes ? { acceptedTypes: run.acceptedTypes } : {}),
  });
}

/** The import's options: the job's client, journal, media choices and rules. */
export function importOptions(job: ImportJob): ImportRunOptions {
  return {
    client: job.client!,
    // The built-in sandbox listens on another port every run: its journal is keyed by its data
    // folder instead (the job's target), so a second run finds what the first one recorded.
    journal: { accounts: job.journalAccounts, dir: job.journalDir, account: { serviceUrl: job.target.service, clientId: job.target.clientId } },
    concurrency: job.concurrency,
    finalState: job.media.keepInProgress ? 2 : 1,
    writeBack: job.media.writeBack ? undefined : false,
    media: job.media.upload,
    ...(job.media.acceptedTypes ? { acceptedTypes: job.media.acceptedTypes } : {}),
    ...topicRulesOf(job.rules),
    describePath: job.display,
    // The first Ctrl-C: nothing new is started, and an upload in flight finishes, so its outcome
    // is recorded. The second drops those uploads too: the next run settles them from the gallery.
    signal: job.signals.stop,
    abortSignal: job.signals.abort,
  };
}
