/**
 * `redocly lint` on the document a running daemon serves, with the repo's redocly.yaml: no error,
 * no warning. The CLI runs from node_modules through its JS entry, offline (telemetry and the
 * update check off), in a child process with a time limit.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server.js';

const require = createRequire(import.meta.url);
const CLI = join(dirname(require.resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
const CONFIG = resolve('redocly.yaml');

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: {
    ruleId: string;
    severity: string;
    message: string;
    location: { pointer: string }[];
  }[];
}

function lint(
  file: string,
): Promise<{ code: number | null; report: LintReport | null; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [CLI, 'lint', file, '--config', CONFIG, '--format=json'],
      {
        timeout: 60_000,
        maxBuffer: 16 * 1024 * 1024,
        env: {
          ...process.env,
          REDOCLY_TELEMETRY: 'off',
          REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
          NO_COLOR: '1',
        },
      },
      (err, stdout, stderr) => {
        let report: LintReport | null = null;
        try {
          report = JSON.parse(stdout);
        } catch {
          /* reported below */
        }
        done({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, report, stderr });
      },
    );
  });
}

describe('GET /api/v1/openapi.json under redocly lint', () => {
  let server: TestServer;
  let dir: string;
  before(async () => {
    server = await startTestServer();
    dir = mkdtempSync(join(tmpdir(), 'household-openapi-'));
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('has no errors and no warnings', async function () {
    this.timeout(90_000);
    const served = await server.http.get('/api/v1/openapi.json');
    expect(served.status).to.equal(200);
    const file = join(dir, 'openapi.json');
    writeFileSync(file, served.text);
    const { code, report, stderr } = await lint(file);
    expect(report, `redocly printed no report (exit ${code}): ${stderr.slice(-2000)}`).to.not.equal(
      null,
    );
    const problems = report!.problems.map(
      (p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`,
    );
    expect(problems).to.deep.equal([]);
    expect(report!.totals).to.deep.equal({ errors: 0, warnings: 0, ignored: 0 });
    expect(code).to.equal(0);
  });

  it('fails a document with an undeclared tag, so the check above can fail', async function () {
    this.timeout(90_000);
    const doc = (await server.http.get('/api/v1/openapi.json')).body;
    doc.tags = doc.tags.filter((t: { name: string }) => t.name !== 'People');
    const file = join(dir, 'broken.json');
    writeFileSync(file, JSON.stringify(doc));
    const { code, report } = await lint(file);
    expect(code).to.not.equal(0);
    expect(report!.problems.some((p) => p.ruleId === 'operation-tag-defined')).to.equal(true);
  });
});
