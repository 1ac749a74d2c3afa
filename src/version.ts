import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

function read(): string {
  for (const p of [resolve(here, '../package.json'), resolve(here, '../../package.json')]) {
    try {
      return (JSON.parse(readFileSync(p, 'utf8')) as { version: string }).version;
    } catch {
      /* next */
    }
  }
  return '0.0.0';
}

export const VERSION = read();
