import { expect } from 'chai';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { tempDataDir } from '../helpers/server.js';
import { runCli, spawnDaemon, type CliResult } from '../helpers/child.js';
import { Store } from '../../src/store/store.js';

const serveArgs = (dir: string, port: number | string, host = '127.0.0.1') => [
  'serve',
  '--data-dir',
  dir,
  '--port',
  String(port),
  '--host',
  host,
];

/** A start-up failure: exactly one line on stderr, no stack, no key printed. */
function expectOneLine(r: CliResult, code: number, line: string): void {
  expect(r.code, r.stderr).to.equal(code);
  expect(r.stderr.trim().split('\n'), r.stderr).to.deep.equal([line]);
  expect(r.stdout).to.not.match(/hk_/);
}

async function holdPort(): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

describe('serve: start-up failures and the first family', function () {
  this.timeout(60_000);
  const dirs: string[] = [];
  const dir = () => {
    const d = tempDataDir();
    dirs.push(d);
    return d;
  };
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('a port in use ends with one line naming it, exit 78, and creates no family; the next start prints the key', async () => {
    const data = dir();
    const blocker = await holdPort();
    const port = (blocker.address() as AddressInfo).port;
    try {
      const r = await runCli(serveArgs(data, port));
      expectOneLine(
        r,
        78,
        `cannot listen on 127.0.0.1:${port}: port ${port} is already in use by another program; ` +
          'stop it or choose another port (--port, HOUSEHOLD_PORT or server.port) (EADDRINUSE)',
      );
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
    const store = Store.open(data);
    try {
      expect(store.listFamilies()).to.deep.equal([]);
    } finally {
      await store.close();
    }

    const d = await spawnDaemon(data);
    try {
      expect(d.bootstrapKey, d.output()).to.be.a('string');
      // The key is printed after the server listens, with the address it listens on.
      expect(d.output()).to.include(
        `curl -H 'x-api-key: ${d.bootstrapKey}' ${d.url}/api/v1/families/home/changes`,
      );
      expect(d.output()).to.not.include('has no active API key');
      const res = await fetch(`${d.url}/api/v1/families/home/people`, {
        headers: { 'x-api-key': d.bootstrapKey! },
      });
      expect(res.status).to.equal(200);
    } finally {
      d.proc.kill('SIGTERM');
      await d.exited;
    }
  });

  it('an address this machine does not have ends with one line naming it, exit 78', async function () {
    // 192.0.2.1 is TEST-NET-1: binding it fails locally (no packet is sent) unless the kernel
    // allows binding foreign addresses.
    if (readFileSync('/proc/sys/net/ipv4/ip_nonlocal_bind', 'utf8').trim() !== '0') {
      this.skip(); // net.ipv4.ip_nonlocal_bind=1: any address binds, so there is no failure to see
    }
    const data = dir();
    const r = await runCli(serveArgs(data, 0, '192.0.2.1'));
    expectOneLine(
      r,
      78,
      'cannot listen on 192.0.2.1:0: "192.0.2.1" is not an address of this machine; use one of its addresses, ' +
        '127.0.0.1 or 0.0.0.0 (--host, HOUSEHOLD_HOST or server.host) (EADDRNOTAVAIL)',
    );
    const store = Store.open(data);
    try {
      expect(store.listFamilies()).to.deep.equal([]);
    } finally {
      await store.close();
    }
  });

  it('a data folder that cannot be created (under a file) ends with one line naming it, exit 78', async () => {
    const file = join(dir(), 'not-a-folder');
    writeFileSync(file, '');
    const r = await runCli(serveArgs(join(file, 'data'), 0));
    expectOneLine(
      r,
      78,
      `cannot create the data folder ${join(file, 'data')}: a part of the path is a file, not a folder (ENOTDIR)`,
    );
  });

  it('a data folder this user cannot write (a root-owned bind mount) ends with one line naming it and the uid, exit 78', async () => {
    const parent = dir();
    const data = join(parent, 'data');
    mkdirSync(data);
    let as: { uid: number; gid: number } | undefined;
    let uid: number;
    if (process.getuid?.() === 0) {
      // Root writes anywhere: run the daemon as `nobody` against a folder owned by root.
      chmodSync(parent, 0o755);
      chmodSync(data, 0o755);
      as = { uid: 65534, gid: 65534 };
      uid = 65534;
    } else {
      chmodSync(data, 0o555);
      uid = process.getuid!();
    }
    try {
      const r = await runCli(serveArgs(data, 0), {}, as);
      expectOneLine(
        r,
        78,
        `cannot open the store in ${data}: permission denied; it must be writable by uid ${uid} (EACCES)`,
      );
      // The other commands say the same about the same folder.
      const list = await runCli(['family', 'create', 'smiths', '--data-dir', data], {}, as);
      expectOneLine(
        list,
        78,
        `cannot open the store in ${data}: permission denied; it must be writable by uid ${uid} (EACCES)`,
      );
    } finally {
      chmodSync(data, 0o700);
    }
  });

  it('a store whose first family has no active key says at every start how to make one', async () => {
    const data = dir();
    const first = await spawnDaemon(data);
    first.proc.kill('SIGTERM');
    await first.exited;
    const keys = JSON.parse(
      (await runCli(['key', 'list', 'home', '--data-dir', data, '--json'])).stdout,
    ).keys as { id: string }[];
    expect(keys).to.have.length(1);
    expect((await runCli(['key', 'revoke', keys[0].id, '--data-dir', data])).code).to.equal(0);

    const hint = `Family "home" has no active API key. Make one with: household-organizer key create home --data-dir ${data}`;
    for (let start = 0; start < 2; start++) {
      const d = await spawnDaemon(data);
      d.proc.kill('SIGTERM');
      await d.exited;
      expect(d.bootstrapKey, 'no second first-family key').to.equal(null);
      expect(d.output()).to.include(hint);
    }

    // Following the hint works, and then the hint is gone.
    const made = await runCli(['key', 'create', 'home', '--data-dir', data, '--json']);
    expect(made.code, made.stderr).to.equal(0);
    const d = await spawnDaemon(data);
    try {
      expect(d.output()).to.not.include('has no active API key');
      const res = await fetch(`${d.url}/api/v1/families/home/people`, {
        headers: { 'x-api-key': JSON.parse(made.stdout).apiKey },
      });
      expect(res.status).to.equal(200);
    } finally {
      d.proc.kill('SIGTERM');
      await d.exited;
    }
  });
});
