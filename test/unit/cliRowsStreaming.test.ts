// spot-import validate streams a table: 100,000 generated rows (no media) are checked by the bundled
// command line within a peak resident set size of 256 MiB, and the last row's problem is still
// found at its line.
//
// How the peak is measured: the child is started as `node -r <hook> dist/cli.js …`, where the hook
// writes process.resourceUsage().maxRSS (getrusage(RUSAGE_SELF).ru_maxrss: the kernel's own high
// -water mark of the process's resident set, in KiB) to a file on the process's 'exit' event,
// which also runs when the CLI ends with process.exit(code). This is the figure `/usr/bin/time -f
// %M` prints, without needing Debian's `time` package (scripts/ensureSystemDeps.js does not install
// it), and unlike sampling /proc/<pid>/status from the parent it cannot miss a short peak or lose
// the reading when the child exits. bench/cli.bench.ts measures the import the same way.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { CLI, cleanEnv, ensureCliBuilt } from './helpers/cliProcess';
import { rowsProject, type Project } from './helpers/rowsProject';

const ROWS = 100_000;
const BUDGET_MIB = 256;

/** A KoBoToolbox-like export of `rows` rows (semicolons, decimal commas, local times), the last one with an unknown species. */
async function writeBigTable(path: string, rows: number): Promise<void> {
  const out = createWriteStream(path);
  out.write('_uuid;Species;Height (m);_location_latitude;_location_longitude;observed\n');
  const species = ['Oak', 'Beech', 'Larch'];
  for (let i = 0; i < rows; i++) {
    const day = String(1 + (i % 28)).padStart(2, '0');
    const name = i === rows - 1 ? 'Walnuss' : species[i % 3];
    const line = `id-${i};${name};${(i % 100) + 1},5;47,${1000 + (i % 9000)};11,${2000 + (i % 7000)};${day}.05.2026 ${String(i % 24).padStart(2, '0')}:15\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

describe('spot-import rows: streaming', function () {
  this.timeout(240_000);
  let project: Project;
  before(() => ensureCliBuilt());
  beforeEach(() => (project = rowsProject()));
  afterEach(() => project.cleanup());

  it(`validates ${ROWS.toLocaleString('en')} rows with a peak RSS under ${BUDGET_MIB} MiB; the last row's problem is at its line`, async () => {
    await writeBigTable(project.path('big.csv'), ROWS);
    project.write(
      'big.mapping.json',
      JSON.stringify({
        topic_id: 7,
        source_id: 'big-{_uuid}',
        latitude: '_location_latitude',
        longitude: '_location_longitude',
        // Species and Height (m) by their labels; every row's local time converted.
        fields: { spotted_at: { column: 'observed', format: 'dd.MM.yyyy HH:mm', inputTimezone: 'Europe/Vienna' } },
      }),
    );
    const report = project.path('peak-rss.txt');
    const hook = project.write(
      'peak-rss.js',
      `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(report)}, String(process.resourceUsage().maxRSS)));\n`,
    );

    const child = spawn(process.execPath, ['-r', hook, CLI, 'validate', 'big.csv'], { cwd: project.dir, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, 'close')) as [number | null];

    assert.equal(code, 1, stderr);
    // The header is line 1, so the last row is on line ROWS + 1; Species is its second cell.
    assert.equal(
      stdout,
      `big.csv:${ROWS + 1}:${`id-${ROWS - 1};`.length + 1}: 'Walnuss' is not a category of Species (fld_7_1); allowed: 1 (Oak), 2 (Beech), 3 (Larch).\n`,
    );
    assert.match(stderr, new RegExp(`^${ROWS} rows of big\\.csv checked: 1 invalid, ${ROWS - 1} valid\\.$`, 'm'));
    const peakMiB = Number(readFileSync(report, 'utf8')) / 1024;
    // A reading too small to be a Node process's would mean the hook measured nothing.
    assert.ok(peakMiB > 20, `peak RSS ${peakMiB} MiB: not a real reading`);
    assert.ok(peakMiB < BUDGET_MIB, `peak RSS of the CLI ${peakMiB.toFixed(0)} MiB, budget ${BUDGET_MIB} MiB`);
  });
});
