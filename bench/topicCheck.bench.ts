// (e) Topic rules on a large document: a spot document of about 1 MB whose topic defines 500
// fields of every type, checked from its text (JSON.parse included) by checkSpotAgainstTopic, the
// same call the editor's diagnostics and the command line make. Two documents: one clean (the
// usual case: nothing to place), and one with a problem in every tenth field (positions needed).
// Goal: median under 20 ms.
import { checkSpotAgainstTopic, TOPIC_FIELD_TYPES, type TopicCatalog, type TopicDefinition, type TopicField } from '../src/core';
import { median } from './sandboxProcess';

export interface TopicCheckFigures {
  documentBytes: number;
  fields: number;
  problems: number;
  cleanMedianMs: number;
  withProblemsMedianMs: number;
}

const TOPIC_ID = 7;

export function topicBenchDefinition(fields: number): TopicDefinition {
  const definition: TopicDefinition = { topic_id: TOPIC_ID, name: 'Bench', fields: {} };
  for (let index = 0; index < fields; index++) {
    const type = TOPIC_FIELD_TYPES[index % TOPIC_FIELD_TYPES.length];
    const label = `Field ${index}`;
    const values = Object.fromEntries(Array.from({ length: 20 }, (_, key) => [String(key + 1), `Choice ${key + 1}`]));
    const field: TopicField =
      type === 'category' || type === 'categories'
        ? { type, label, values }
        : type === 'text'
          ? { type, label, maxLength: 100_000 }
          : type === 'number' || type === 'integer'
            ? { type, label, minimum: 0, maximum: 1e6 }
            : { type, label };
    definition.fields[`fld_${TOPIC_ID}_${index}`] = field;
  }
  return definition;
}

/** A document with a value for every field, padded with long texts to about `bytes`. */
export function topicBenchDocument(definition: TopicDefinition, bytes: number, broken: boolean): string {
  const attributes: Record<string, unknown> = { topic_id: TOPIC_ID, source_id: 'bench', latitude: 47.2, longitude: 11.4, state: 2, privacy_type: 0 };
  const names = Object.keys(definition.fields);
  const texts = names.filter((name) => definition.fields[name].type === 'text').length;
  const padding = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(Math.ceil(bytes / texts / 57)).slice(0, Math.floor(bytes / texts) - 40);
  names.forEach((name, index) => {
    const sample: Record<TopicField['type'], unknown> = {
      text: padding,
      number: 12.5,
      integer: 12,
      boolean: true,
      date: '2024-05-31',
      datetime: '2024-05-31 14:30:00',
      category: 3,
      categories: [1, 2, 5],
      gallery: null,
    };
    attributes[name] = broken && index % 10 === 0 ? (definition.fields[name].type === 'boolean' ? 'yes' : false) : sample[definition.fields[name].type];
  });
  return JSON.stringify({ data: { type: 'spots', attributes } }, null, 2);
}

export function benchTopicCheck(rounds: number, bytes = 1024 * 1024, fields = 500): TopicCheckFigures {
  const definition = topicBenchDefinition(fields);
  const catalog: TopicCatalog = new Map([[TOPIC_ID, definition]]);
  const clean = topicBenchDocument(definition, bytes, false);
  const broken = topicBenchDocument(definition, bytes, true);
  if (checkSpotAgainstTopic(clean, catalog).length !== 0) throw new Error('the clean bench document has problems');
  const problems = checkSpotAgainstTopic(broken, catalog).length;
  if (problems !== Math.ceil(fields / 10)) throw new Error(`the broken bench document has ${problems} problems, not ${Math.ceil(fields / 10)}`);
  const cleanTimes: number[] = [];
  const brokenTimes: number[] = [];
  // Round 0 warms up the JIT; the two documents alternate.
  for (let round = 0; round <= rounds; round++) {
    for (const [text, times] of [
      [clean, cleanTimes],
      [broken, brokenTimes],
    ] as const) {
      const started = performance.now();
      checkSpotAgainstTopic(text, catalog);
      if (round > 0) times.push(performance.now() - started);
    }
  }
  return { documentBytes: Buffer.byteLength(clean), fields, problems, cleanMedianMs: median(cleanTimes), withProblemsMedianMs: median(brokenTimes) };
}

export function printTopicCheck(figures: TopicCheckFigures): void {
  const goal = (ms: number) => `(goal < 20 ms) ${ms < 20 ? 'met' : 'NOT MET'}`;
  console.log(`(e) topic rules on a ${(figures.documentBytes / 1048576).toFixed(2)} MiB document, ${figures.fields} defined fields`);
  console.log(`    clean document       ${figures.cleanMedianMs.toFixed(2)} ms  ${goal(figures.cleanMedianMs)}`);
  console.log(
    `    ${String(figures.problems).padEnd(3)} problems         ${figures.withProblemsMedianMs.toFixed(2)} ms  ${goal(figures.withProblemsMedianMs)}`,
  );
}

// `node out/bench/topicCheck.bench.js` runs this part alone (no sandbox needed). The file name is
// checked too: inside the dist/bench/run.js bundle, require.main === module holds for every part.
if (require.main === module && /topicCheck\.bench\.js$/.test(process.argv[1] ?? '')) printTopicCheck(benchTopicCheck(Number(process.env.BENCH_ROUNDS ?? 15)));
