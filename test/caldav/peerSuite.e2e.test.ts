/**
 * python-caldav 0.11's own functional suite (the tests that library runs against every CalDAV
 * server), run against the daemon on loopback with the suite's compatibility flags only for what
 * the daemon does not do by design: no scheduling (RFC 6638) and its free-busy, no journals, no
 * to-dos in an event calendar (they live in lists). The suite is kept, with its licence, beside
 * the repository in `../shared/peers/python-caldav/` (its README says how it is run); Radicale
 * 3.1.8, what households run today, passes 30 and fails 1 of it with its own flags.
 *
 * The daemon is held to at least Radicale's 30 passed, and to no failure other than the two
 * asserts of 0.11's suite that contradict RFC 4791 §9.7.5 (text-match is a substring match) and
 * that python-caldav corrected in later releases: a search for the summary "Bastille Day Party"
 * expecting 2 events where only one has it ("Bastille Day Jitsi Party" does not contain it), and
 * one for the category "MIL" expecting 1 to-do where all 6 have "FAMILY". A server passes them
 * only by claiming text search is an exact match (Radicale's flags do), which the daemon's is
 * not. Where the suite or python3-caldav and pytest are missing, the test says so and is skipped.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { run } from './clients.js';

const FLAGS = [
  'no_scheduling',
  'no_freebusy_rfc6638',
  'no_journal',
  'no_todo_on_standard_calendar',
];

/** The two asserts of the 0.11 suite that an RFC-conforming text-match fails (see above). */
const SUITE_ERRORS = new Map([
  ['testSearchEvent', 'test_caldav.py:1213: assert 1 == 2'],
  ['testSearchTodos', 'test_caldav.py:1287: assert 6 == 1'],
]);

/**
 * `../shared/peers/python-caldav` beside the repository: beside this checkout, or beside the
 * main checkout when this is a git worktree of it.
 */
function suiteDir(): string | null {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
  const roots = [root];
  const common = spawnSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (common.status === 0) roots.push(dirname(common.stdout.trim()));
  for (const r of roots) {
    const dir = join(r, '..', 'shared', 'peers', 'python-caldav');
    if (existsSync(join(dir, 'run.sh'))) return dir;
  }
  return null;
}

function missing(dir: string | null): string | null {
  if (!dir) return '../shared/peers/python-caldav (the suite) is not beside this repository';
  const py = spawnSync('/usr/bin/python3', ['-c', 'import caldav, pytest, vobject, six'], {
    encoding: 'utf8',
  });
  if (py.status !== 0)
    return 'python3-caldav, python3-pytest, python3-vobject or python3-six is not installed';
  return null;
}

describe("python-caldav 0.11's functional suite against the daemon", function () {
  this.timeout(600_000);
  let server: TestServer;
  const dir = suiteDir();

  before(async function () {
    const why = missing(dir);
    if (why) {
      console.log(`      skipped: ${why}`);
      this.skip();
    }
    server = await startTestServer({ timezone: 'Europe/Berlin' });
  });
  after(() => server?.close());

  it("passes at least Radicale's 30 tests, and fails none but the suite's two text-search errors", async () => {
    const out = await run(
      join(dir!, 'run.sh'),
      [`${server.url}/.well-known/caldav`, server.slug, server.apiKey, ...FLAGS],
      { seconds: 540 },
    );
    const text = out.stdout + out.stderr;
    const last = text.trim().split('\n').pop() ?? '';
    console.log(`      python-caldav 0.11: ${last}`);
    const m = /^(\d+) passed, (\d+) failed$/.exec(last);
    expect(m, text).to.not.equal(null);
    const failed = [...text.matchAll(/^(?:FAILED|ERROR) \S+::(\w+)/gm)].map((f) => f[1]);
    const unexpected = failed.filter((f) => !SUITE_ERRORS.has(f));
    expect(unexpected, text).to.deep.equal([]);
    for (const f of failed) expect(text, f).to.contain(SUITE_ERRORS.get(f));
    expect(Number(m![1]), text).to.be.at.least(30);
    expect(Number(m![2]), text).to.equal(failed.length);
  });
});
