/**
 * The command line reachable as the README writes it: `npx household-organizer …` from the
 * checkout runs the package's own executable (package.json `bin`, a shebang, the executable
 * bit), without asking the registry for anything (npm runs offline here, so a missing `bin`
 * fails instead of downloading a stranger's package).
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  bin: Record<string, string>;
};

function npx(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((res) => {
    execFile(
      'npx',
      args,
      {
        cwd: root,
        env: {
          ...process.env,
          npm_config_offline: 'true',
          npm_config_update_notifier: 'false',
          npm_config_fund: 'false',
          npm_config_audit: 'false',
        },
      },
      (err, stdout, stderr) =>
        res({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

describe('npx household-organizer', function () {
  this.timeout(120_000);

  it('names the executable in package.json bin, with a node shebang and the executable bit', () => {
    expect(pkg.bin).to.deep.equal({ 'household-organizer': 'bin/household-organizer' });
    const bin = resolve(root, pkg.bin['household-organizer']);
    expect(readFileSync(bin, 'utf8').split('\n')[0]).to.equal('#!/usr/bin/env node');
    expect(statSync(bin).mode & 0o111).to.equal(0o111);
  });

  it('runs the checkout’s own command line: --help and --version', async () => {
    const help = await npx(['household-organizer', '--help']);
    expect(help.code, help.stderr).to.equal(0);
    expect(help.stdout).to.match(
      new RegExp(`^household-organizer ${pkg.version.replace(/\./g, '\\.')}: `),
    );
    const version = await npx(['household-organizer', '--version']);
    expect(version.stdout).to.equal(`${pkg.version}\n`);
  });
});
