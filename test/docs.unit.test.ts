/**
 * The repository explains itself: no source, test, bench, doc or config file points at
 * documents that live outside it (the planning notes the project started from). A reader who
 * clones the repository sees only the repository, so a comment either says its reason in place
 * or points at `docs/`. Also refused: references to tracker issues by number,
 * which mean nothing without the tracker.
 */
import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Built from pieces so that this file does not match itself. */
const OUTSIDE = [
  new RegExp('DESIGN' + ' §'),
  new RegExp('DESIGN' + '\\.md'),
  new RegExp('household-api' + '\\.md'),
  new RegExp('CONVENTIONS' + '\\.md'),
  new RegExp('\\.\\./shared/' + '(spec|DESIGN|CONVENTIONS)'),
  new RegExp('/work/' + 'shared'),
  new RegExp('\\bissue' + ' #?\\d', 'i'),
];

const TEXT = /\.(ts|mjs|js|json|md|yaml|yml)$/;

function files(p: string, out: string[] = []): string[] {
  if (statSync(p).isDirectory()) {
    for (const name of readdirSync(p)) files(join(p, name), out);
  } else if (TEXT.test(p) || dirname(p).endsWith('/bin')) out.push(p);
  return out;
}

describe('repository documents', () => {
  it('cite no document outside the repository and no tracker issue by number', () => {
    const scanned = ['src', 'test', 'bench', 'docs', 'config', 'bin', 'README.md'].flatMap((p) =>
      files(join(root, p)),
    );
    expect(scanned.length).to.be.greaterThan(100);
    const found: string[] = [];
    for (const file of scanned) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          for (const re of OUTSIDE)
            if (re.test(line)) found.push(`${relative(root, file)}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(found).to.deep.equal([]);
  });

  it('the check itself catches such a reference', () => {
    expect(OUTSIDE.some((re) => re.test('see DESIGN' + ' §5'))).to.equal(true);
    expect(OUTSIDE.some((re) => re.test('(issue' + ' 2)'))).to.equal(true);
    expect(OUTSIDE.some((re) => re.test("import { x } from '../shared/errors.js'"))).to.equal(
      false,
    );
  });
});
