/**
 * An orderly stop (SIGTERM) does not wait on sockets that have nothing to finish: a browser's
 * preconnected socket that never sent a request, a request half through its headers, a
 * display page's open event stream. Each used to hold the stop until the 8 s fallback.
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tempDataDir } from '../helpers/server.js';
import { spawnDaemon } from '../helpers/child.js';
import { until } from '../helpers/until.js';

describe('serve: an orderly stop with clients holding connections open', function () {
  this.timeout(60_000);
  const data = tempDataDir();
  const sockets: Socket[] = [];
  after(() => {
    for (const s of sockets) s.destroy();
    rmSync(data, { recursive: true, force: true });
  });

  it('ends at once, whatever the sockets are doing, and every commit before it is kept', async () => {
    const d = await spawnDaemon(data);
    const { hostname, port } = new URL(d.url);
    const api = (path: string, body?: unknown) =>
      fetch(`${d.url}/api/v1/families/home${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'x-api-key': d.bootstrapKey!, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const display = (await (await api('/displays', { name: 'Kitchen' })).json()) as {
      token: string;
    };
    const open = (first?: string) => {
      const s = connect(Number(port), hostname, () => first && s.write(first));
      s.on('error', () => undefined);
      sockets.push(s);
      return s;
    };
    // A preconnected socket, a request half through its headers, a display's event stream.
    const idle = open();
    const half = open('GET /healthz HTTP/1.1\r\nHost: localhost\r\n');
    const stream = open(
      `GET /display/${display.token}/events HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n`,
    );
    let streamed = '';
    stream.on('data', (c: Buffer) => (streamed += c.toString()));
    await until('the display stream to open', () => streamed.includes('event: display'));
    const made = await api('/people', { name: 'Ana' });
    expect(made.status).to.equal(201);

    const t0 = performance.now();
    d.proc.kill('SIGTERM');
    const ended = await d.exited;
    const ms = performance.now() - t0;
    expect(ended).to.deep.equal({ code: 0, signal: null });
    // The fallback that used to end such sockets waits 8 s; an orderly stop takes well under 1.
    expect(ms, `stopped in ${Math.round(ms)} ms`).to.be.below(4_000);
    for (const s of [idle, half, stream])
      await until('the daemon to close each socket', () => s.destroyed || s.readableEnded);

    const again = await spawnDaemon(data);
    try {
      const people = (await (
        await fetch(`${again.url}/api/v1/families/home/people`, {
          headers: { 'x-api-key': d.bootstrapKey! },
        })
      ).json()) as { people: { name: string }[] };
      expect(people.people.map((p) => p.name)).to.include('Ana');
    } finally {
      again.proc.kill('SIGTERM');
      await again.exited;
    }
  });
});
