import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('POST /people under concurrency', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.close());

  it('persists 1,000 writes from 50 requests in flight, in mailbox order, and keeps them across a restart', async function () {
    this.timeout(60_000);
    const acknowledged: { id: string; name: string }[] = [];
    let next = 0;
    async function client() {
      while (next < 1000) {
        const i = next++;
        const r = await server.api.post('/people', { name: `person ${i}` });
        expect(r.status).to.equal(201);
        acknowledged.push({ id: r.body.person.id, name: `person ${i}` });
      }
    }
    await Promise.all(Array.from({ length: 50 }, client));
    expect(acknowledged).to.have.length(1000);

    const changes: any[] = [];
    for (let after = 0; ;) {
      const page = (await server.api.get(`/changes?after=${after}&limit=500`)).body;
      changes.push(...page.changes);
      if (page.changes.length < 500) break;
      after = page.nextAfter;
    }
    const created = changes.filter((c) => c.type === 'person.created');
    expect(created).to.have.length(1000);
    expect(changes.map((c) => c.seq)).to.deep.equal(changes.map((_, i) => i + 1));
    // Ids are minted as commands leave the mailbox, so ascending ids = the mailbox order.
    const ids = created.map((c) => c.object.id);
    expect(ids).to.deep.equal([...ids].sort());
    expect(new Set(ids)).to.deep.equal(new Set(acknowledged.map((a) => a.id)));

    await server.close({ keepData: true });
    server = await startTestServer({ dataDir: server.dataDir });
    const people = (await server.api.get('/people')).body.people as { id: string }[];
    expect(people.map((p) => p.id).sort()).to.deep.equal([...ids].sort());
  });
});
