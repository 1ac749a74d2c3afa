/**
 * A full disk is survived by the real daemon process: on a 24 MiB tmpfs, filled to the last
 * block, writes answer 507 with Retry-After through every door that writes (REST, CalDAV, an
 * MCP tool call; again and again: a failed commit after a failed commit), reads go on, /healthz says writes are failing, the process never exits, and once
 * space returns writes work again without a restart and no acknowledged write is missing —
 * neither from the running daemon nor after a restart.
 *
 * Mounting needs root: the tmpfs is mounted directly where that is allowed, else the daemon
 * runs in its own user and mount namespace (`unshare -Urm`) and this test reaches the tmpfs
 * through /proc/<pid>/root. Without either, the suite counts it as skipped and says why.
 */
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '../helpers/server.js';
import { spawnDaemon, type ChildDaemon } from '../helpers/child.js';

const SIZE = '24m';

function canRun(command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Every other door that writes, on the full disk: CalDAV's PUT, MKCALENDAR and PROPPATCH and an
 * MCP tool call each answer 507 with Retry-After in their own form (DAV:error naming
 * DAV:sufficient-disk-space; a JSON-RPC result carrying REST's error), never 500. A small
 * write can still fit in pages LMDB freed earlier, so each is sent until the disk refuses it,
 * a large REST write before each try using up what is left: every answer meanwhile is a 2xx
 * or a 507.
 */
async function otherDoors(url: string, key: string, pressure: () => Promise<unknown>) {
  const auth = { authorization: `Basic ${Buffer.from(`home:${key}`).toString('base64')}` };
  const xml = { ...auth, 'content-type': 'application/xml; charset=utf-8' };
  const event = (i: number) =>
    [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//test//EN',
      'BEGIN:VEVENT',
      `UID:full-${i}`,
      'DTSTART:20261201T100000',
      `DESCRIPTION:${'x'.repeat(20_000)}`,
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
  const writes: Record<string, (i: number) => Promise<Response>> = {
    'CalDAV PUT': (i) =>
      fetch(`${url}/dav/home/calendar/full-${i}.ics`, {
        method: 'PUT',
        headers: { ...auth, 'content-type': 'text/calendar' },
        body: event(i),
      }),
    'CalDAV MKCALENDAR': (i) =>
      fetch(`${url}/dav/home/full-${i}/`, {
        method: 'MKCALENDAR',
        headers: xml,
        body: `<c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop><d:displayname>Full ${i}</d:displayname></d:prop></d:set></c:mkcalendar>`,
      }),
    'CalDAV PROPPATCH': (i) =>
      fetch(`${url}/dav/home/calendar/`, {
        method: 'PROPPATCH',
        headers: xml,
        body: `<d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><d:displayname>Calendar ${i}</d:displayname></d:prop></d:set></d:propertyupdate>`,
      }),
    'MCP tool call': (i) =>
      fetch(`${url}/mcp`, {
        method: 'POST',
        headers: {
          'x-api-key': key,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: i,
          method: 'tools/call',
          params: {
            name: 'create_entry',
            arguments: {
              collectionKey: 'groceries',
              title: `mcp ${i}`,
              data: { notes: 'y'.repeat(20_000) },
            },
          },
        }),
      }),
  };
  for (const [what, send] of Object.entries(writes)) {
    let refused: { status: number; retryAfter: string | null; text: string } | undefined;
    for (let i = 0; i < 20 && !refused; i++) {
      await pressure();
      const res = await send(i);
      const text = await res.text();
      expect(res.status < 300 || res.status === 507, `${what}: ${res.status} ${text}`).to.equal(
        true,
      );
      if (res.status === 507)
        refused = { status: res.status, retryAfter: res.headers.get('retry-after'), text };
    }
    expect(refused, `${what} was refused at least once`).to.not.equal(undefined);
    expect(refused!.retryAfter, what).to.equal('60');
    if (what.startsWith('CalDAV')) expect(refused!.text, what).to.include('sufficient-disk-space');
    else
      expect(JSON.parse(refused!.text).result.structuredContent.code).to.equal(
        'insufficient_storage',
      );
  }
}

describe('the daemon on a full disk', function () {
  this.timeout(60_000);
  let mount: string;
  let mode: 'direct' | 'namespace';
  let daemon: ChildDaemon | undefined;

  before(function () {
    if (process.getuid?.() !== 0) {
      console.log('      (skipped: mounting a small tmpfs needs root)');
      this.skip();
    }
    mount = mkdtempSync(join(tmpdir(), 'household-disk-'));
    if (canRun('mount', ['-t', 'tmpfs', '-o', `size=${SIZE}`, 'tmpfs', mount])) {
      mode = 'direct';
    } else if (
      canRun('unshare', ['-Urm', 'mount', '-t', 'tmpfs', '-o', `size=${SIZE}`, 'tmpfs', mount])
    ) {
      mode = 'namespace';
    } else {
      rmSync(mount, { recursive: true, force: true });
      console.log('      (skipped: neither mount nor unshare -Urm may mount a tmpfs here)');
      this.skip();
    }
  });

  after(async () => {
    if (daemon && daemon.proc.exitCode === null && daemon.proc.signalCode === null) {
      daemon.proc.kill('SIGTERM');
      await daemon.exited;
    }
    if (!mount) return;
    if (mode === 'direct') {
      try {
        execFileSync('umount', ['-l', mount], { stdio: 'ignore' });
      } catch {
        /* already gone */
      }
    }
    rmSync(mount, { recursive: true, force: true });
  });

  /** Starts the daemon on the tmpfs; in namespace mode the mount lives as long as the daemon. */
  function start(): Promise<ChildDaemon> {
    const dataDir = join(mount, 'data');
    if (mode === 'direct') return spawnDaemon(dataDir);
    return spawnDaemon(dataDir, {}, (node, args) => [
      'unshare',
      [
        '-Urm',
        'sh',
        '-c',
        `mount -t tmpfs -o size=${SIZE} tmpfs "$0" && exec "$@"`,
        mount,
        node,
        ...args,
      ],
    ]);
  }

  /** The tmpfs as this process sees it (the daemon's mount namespace in namespace mode). */
  function seen(d: ChildDaemon): string {
    return mode === 'direct' ? mount : `/proc/${d.proc.pid}/root${mount}`;
  }

  async function listTitles(api: Client): Promise<string[]> {
    const titles: string[] = [];
    let cursor = '';
    for (;;) {
      const r = await api.get(`/trackers/groceries/entries?limit=50${cursor}`);
      expect(r.status).to.equal(200);
      titles.push(...r.body.entries.map((e: any) => e.title as string));
      if (!r.body.nextCursor) return titles;
      cursor = `&cursor=${encodeURIComponent(r.body.nextCursor)}`;
    }
  }

  it('answers 507 while full, serves reads, never exits, and writes again once space returns', async () => {
    daemon = await start();
    const d = daemon;
    const key = d.bootstrapKey!;
    const api = new Client(`${d.url}/api/v1/families/home`, key);
    const health = new Client(d.url, null);
    const acknowledged = new Set<string>();
    const write = async (title: string, notes = '', headers?: Record<string, string>) => {
      const r = await api.post(
        '/trackers/groceries/entries',
        { title, data: { notes } },
        headers ? { headers } : {},
      );
      if (r.status === 201) acknowledged.add(r.body.entry.title);
      return r;
    };
    for (let i = 0; i < 10; i++) expect((await write(`before ${i}`)).status).to.equal(201);

    // Fill the file system to the last block.
    const root = seen(d);
    const free = statfsSync(root);
    const filler = join(root, 'filler');
    writeFileSync(filler, Buffer.alloc(Number(free.bavail * free.bsize)));

    // Three bursts: each commit fails after earlier failures (ENOSPC, then EIO on this kernel).
    const big = 'x'.repeat(20_000);
    let refused: Awaited<ReturnType<typeof write>> | undefined;
    for (let burst = 0; burst < 3; burst++) {
      const writes = Array.from({ length: 30 }, (_, i) => write(`full ${burst}-${i}`, big));
      const reads = Array.from({ length: 5 }, () => api.get('/trackers/groceries/entries?limit=5'));
      const [w, r] = await Promise.all([Promise.all(writes), Promise.all(reads)]);
      for (const x of w) expect([201, 507], x.text).to.include(x.status);
      refused ??= w.find((x) => x.status === 507);
      for (const x of r) expect(x.status).to.equal(200);
    }
    expect(refused, 'some write was refused').to.not.equal(undefined);
    expect(refused!.body).to.include({ ok: false, code: 'insufficient_storage' });
    expect(refused!.headers.get('retry-after')).to.equal('60');
    const idem = await write('idempotent', big, { 'idempotency-key': 'disk-full-1' });
    expect(idem.status).to.equal(507);
    await otherDoors(d.url, key, () => write('pressure', big));
    expect((await health.get('/healthz')).body.writes).to.equal('failing');
    expect((await api.get('/people')).status).to.equal(200);
    expect(d.proc.exitCode, d.output()).to.equal(null);

    // Space returns: writes work again at once, in the same process.
    rmSync(filler);
    const again = await write('after');
    expect(again.status, again.text).to.equal(201);
    // The refused idempotent request was not kept: its retry is decided anew.
    expect((await write('idempotent', big, { 'idempotency-key': 'disk-full-1' })).status).to.equal(
      201,
    );
    expect((await health.get('/healthz')).body.writes).to.equal('ok');
    const titles = new Set(await listTitles(api));
    expect(
      [...acknowledged].filter((t) => !titles.has(t)),
      'acknowledged writes missing',
    ).to.deep.equal([]);
    for (const t of titles)
      expect(acknowledged.has(t), `${t} was never acknowledged`).to.equal(true);
    const log = d.stdout();
    expect(log).to.include('writes are failing; reads go on');
    expect(log).to.include('reopened the store after a failed commit');
    expect(log).to.include('writes work again');
    expect(d.output()).to.not.include('Commit failed');
    expect(d.proc.exitCode, d.output()).to.equal(null);

    // The change log has no hole, and a restart finds every acknowledged write (direct mode:
    // in namespace mode the tmpfs ends with the daemon).
    const changes = (await api.get('/changes?after=0&limit=500')).body.changes as { seq: number }[];
    expect(changes.map((c) => c.seq)).to.deep.equal(changes.map((_, i) => i + 1));
    d.proc.kill('SIGTERM');
    expect((await d.exited).code).to.equal(0);
    if (mode === 'direct') {
      daemon = await start();
      const api2 = new Client(`${daemon.url}/api/v1/families/home`, key);
      const after = new Set(await listTitles(api2));
      expect([...acknowledged].filter((t) => !after.has(t))).to.deep.equal([]);
    }
  });
});
