import { expect } from 'chai';
import { startTestServer, type Client, type TestServer } from '../helpers/server.js';
import { conforms } from '../helpers/contract.js';
import { FakeClock } from '../helpers/clock.js';

const CONTEXT = '/api/v1/families/{familySlug}/context';

// Sunday 22 November 2026, 08:30 UTC; the families' zone is UTC.
const clock = new FakeClock('2026-11-22T08:30:00.000Z');

describe('GET /context', () => {
  let server: TestServer;
  let n = 0;
  /** A fresh family for one test: nothing else shows in its results. */
  const family = async () => (await server.family(`ctx-${++n}`)).client;
  const search = async (api: Client, query: string, extra = '') => {
    const r = await api.get(`/context?query=${encodeURIComponent(query)}${extra}`);
    expect(r.status, query).to.equal(200);
    await conforms(server, r, 'get', CONTEXT);
    return r.body.results as any[];
  };
  const titles = (results: any[]) => results.map((r) => r.title);
  const entry = async (
    api: Client,
    collection: string,
    title: string,
    data: Record<string, unknown> = {},
  ) => {
    const r = await api.post(`/trackers/${collection}/entries`, { title, data });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    return r.body.entry.id as string;
  };
  const event = async (api: Client, body: Record<string, unknown>) => {
    const r = await api.post('/calendar/events', body);
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    return r.body.entryId as string;
  };

  before(async () => {
    server = await startTestServer({ now: clock.now });
  });
  after(() => server?.close());
  beforeEach(() => clock.set('2026-11-22T08:30:00.000Z'));

  describe('ranking', () => {
    it('finds words by their beginning, ranked above a word one letter off', async () => {
      const api = await family();
      await entry(api, 'groceries', 'Dishwasher tablets', { aisle: 'household' });
      await entry(api, 'groceries', 'Dish soap');
      await entry(api, 'groceries', 'Washing powder');
      expect(titles(await search(api, 'dishwa'))).to.deep.equal(['Dishwasher tablets']);
      // "dishw" is also one letter more than "dish": the word being typed comes first.
      expect(titles(await search(api, 'dishw'))).to.deep.equal(['Dishwasher tablets', 'Dish soap']);
      // A whole word beats a longer word it begins.
      expect(titles(await search(api, 'dish'))).to.deep.equal(['Dish soap', 'Dishwasher tablets']);
    });

    it('forgives one wrong letter from four letters on and two from eight, not below', async () => {
      const api = await family();
      await entry(api, 'chores', 'Piano practice');
      await entry(api, 'groceries', 'Milk');
      await entry(api, 'groceries', 'Egg');
      await entry(api, 'chores', 'Football training');
      expect(titles(await search(api, 'pisno'))).to.deep.equal(['Piano practice']);
      expect(titles(await search(api, 'milj'))).to.deep.equal(['Milk']);
      expect(titles(await search(api, 'egh'))).to.deep.equal([]); // three letters: exact only
      expect(titles(await search(api, 'footbxlx'))).to.deep.equal(['Football training']); // eight letters, two edits
      expect(titles(await search(api, 'footxxl'))).to.deep.equal([]); // seven letters: one edit only
      expect(titles(await search(api, 'piaxxo'))).to.deep.equal([]);
    });

    it('ranks a title match above a match in the data, and shows the matched words of the data', async () => {
      const api = await family();
      await entry(api, 'chores', 'Buy sheet music', {
        notes: 'The blue book, for the piano lessons on Tuesday',
      });
      await entry(api, 'chores', 'Piano tuning');
      const results = await search(api, 'piano');
      expect(titles(results)).to.deep.equal(['Piano tuning', 'Buy sheet music']);
      expect(results[0].score).to.be.greaterThan(results[1].score);
      expect(results[1].snippet).to.equal('The blue book, for the piano lessons on Tuesday');
      expect(results[1]).to.include({ type: 'entry', collectionKey: 'chores', status: 'active' });
    });

    it('ignores case and accents both ways, and spells out ø, æ and ß', async () => {
      const api = await family();
      await entry(api, 'groceries', 'Crème fraîche');
      await entry(api, 'groceries', 'Smørrebrød bread');
      await entry(api, 'groceries', 'Weißwurst');
      await api.post('/people', { name: 'Zoë Martin' });
      expect(titles(await search(api, 'CREME FRAICHE'))).to.deep.equal(['Crème fraîche']);
      expect(titles(await search(api, 'crème'))).to.deep.equal(['Crème fraîche']);
      expect(titles(await search(api, 'smorrebrod'))).to.deep.equal(['Smørrebrød bread']);
      expect(titles(await search(api, 'weisswurst'))).to.deep.equal(['Weißwurst']);
      expect(titles(await search(api, 'zoe'))).to.deep.equal(['Zoë Martin']);
    });

    it('needs every word to match', async () => {
      const api = await family();
      await entry(api, 'chores', 'Clean the bathroom', { notes: 'upstairs' });
      await entry(api, 'chores', 'Clean the kitchen');
      expect(titles(await search(api, 'clean upstairs'))).to.deep.equal(['Clean the bathroom']);
      expect(titles(await search(api, 'clean garage'))).to.deep.equal([]);
    });
  });

  describe('what it finds', () => {
    it('finds people by either name, collections by name, and says what each result is', async () => {
      const api = await family();
      const person = (
        await api.post('/people', { name: 'Ana Lima', familiarName: 'Mum', kind: 'adult' })
      ).body.person.id;
      await api.post('/trackers', {
        name: 'Swimming kit',
        description: 'What goes in the swim bag',
        fields: [{ key: 'size', label: 'Size' }],
      });
      expect(await search(api, 'mum')).to.deep.equal([
        {
          type: 'person',
          id: person,
          title: 'Mum',
          snippet: 'adult · Ana Lima',
          score: (await search(api, 'mum'))[0].score,
        },
      ]);
      expect((await search(api, 'lima'))[0]).to.include({
        type: 'person',
        id: person,
        title: 'Mum',
      });
      const [c] = await search(api, 'swimming');
      expect(c).to.include({
        type: 'collection',
        id: 'swimming-kit',
        collectionKey: 'swimming-kit',
        title: 'Swimming kit',
        snippet: 'What goes in the swim bag',
      });
      await api.post('/trackers', {
        name: 'Toy box',
        fields: [
          { key: 'owner', label: 'Owner', type: 'person' },
          { key: 'room', label: 'Room' },
        ],
      });
      expect(await search(api, 'toy')).to.deep.equal([
        {
          type: 'collection',
          id: 'toy-box',
          collectionKey: 'toy-box',
          title: 'Toy box',
          snippet: 'Fields: Owner, Room',
          score: (await search(api, 'toy'))[0].score,
        },
      ]);
      expect((await search(api, 'groceries'))[0]).to.include({
        type: 'collection',
        id: 'groceries',
        snippet: 'The shopping list',
      });
    });

    it('dates an entry by its first date field', async () => {
      const api = await family();
      const id = await entry(api, 'chores', 'Renew passport', {
        due: '2026-12-01',
        repeats: 'once',
      });
      expect((await search(api, 'passport'))[0]).to.deep.include({
        type: 'entry',
        id,
        date: '2026-12-01',
        collectionKey: 'chores',
      });
    });

    it('shows events at their first occurrence in the next 30 days, however old the series', async () => {
      const api = await family();
      // Weekly on Tuesdays since 2020: the next one is Tuesday 24 November 2026.
      const lessons = await event(api, {
        title: 'Violin lesson',
        date: '2020-01-07',
        time: '17:00',
        endTime: '18:00',
        where: 'Music school',
        repeatFrequency: 'weekly',
      });
      const party = await event(api, { title: 'Violin concert', date: '2026-12-21', allDay: true }); // today + 29
      await event(api, { title: 'Violin exam', date: '2026-12-22' }); // today + 30: outside
      await event(api, { title: 'Violin fair', date: '2026-11-21' }); // yesterday
      const results = await search(api, 'violin');
      expect(results.map((r) => [r.title, r.date])).to.have.deep.members([
        ['Violin lesson', '2026-11-24'],
        ['Violin concert', '2026-12-21'],
      ]);
      expect(results.find((r) => r.id === lessons)).to.deep.include({
        type: 'event',
        collectionKey: 'calendar',
        date: '2026-11-24',
        time: '17:00',
        status: 'active',
        snippet: '2026-11-24 17:00–18:00 · Music school',
      });
      expect(results.find((r) => r.id === party)).to.include({ snippet: '2026-12-21 all day' });
      expect(results.find((r) => r.id === party)).to.not.have.property('time');
      // The place and the note are searched, and a note match is shown after the timing.
      await api.patch(`/calendar/events/${lessons}`, {
        note: 'Bring the rosin and the new strings',
      });
      expect((await search(api, 'rosin'))[0].snippet).to.equal(
        '2026-11-24 17:00–18:00 · Music school · Bring the rosin and the new strings',
      );
      expect(await search(api, 'music school')).to.deep.equal([
        {
          ...(await search(api, 'rosin'))[0],
          score: (await search(api, 'music school'))[0].score,
          snippet: '2026-11-24 17:00–18:00 · Music school',
        },
      ]);
    });

    it('keeps snippets short around the matched words, however long the place, note or name', async () => {
      const api = await family();
      const long = (w: string) =>
        `${'lorem ipsum dolor '.repeat(20)}${w} ${'sit amet '.repeat(40)}`.trim();
      await event(api, {
        title: 'Long one',
        date: '2026-11-25',
        time: '09:00',
        where: 'x'.repeat(480),
        note: long('marshmallow'),
      });
      await entry(api, 'chores', 'Long chore', { notes: long('quokka') });
      await api.post('/people', { name: `Bartholomew ${'Y'.repeat(180)}`, familiarName: 'Barty' });
      const [ev] = await search(api, 'marshmallow');
      expect(ev.snippet.length).to.be.at.most(240);
      expect(ev.snippet).to.match(/^2026-11-25 09:00 · x+… · …[^·]*marshmallow/);
      const [chore] = await search(api, 'quokka');
      expect(chore.snippet.length).to.be.at.most(162);
      expect(chore.snippet).to.match(/^….*quokka sit amet.*…$/);
      const [person] = await search(api, 'barty');
      expect(person.snippet.length).to.be.at.most(161);
    });

    it('skips a removed or archived occurrence for the next one, and an archived event altogether', async () => {
      const api = await family();
      const id = await event(api, {
        title: 'Swim class',
        date: '2026-11-02',
        repeatFrequency: 'weekly',
      }); // Mondays
      expect((await search(api, 'swim'))[0].date).to.equal('2026-11-23');
      expect(
        (await api.delete(`/calendar/events/${id}?editScope=occurrence&occurrenceDate=2026-11-23`))
          .status,
      ).to.equal(200);
      expect((await search(api, 'swim'))[0].date).to.equal('2026-11-30');
      await api.patch(`/calendar/events/${id}`, {
        editScope: 'occurrence',
        occurrenceDate: '2026-11-30',
        status: 'archived',
      });
      expect((await search(api, 'swim'))[0].date).to.equal('2026-12-07');
      await api.patch(`/calendar/events/${id}`, {
        editScope: 'occurrence',
        occurrenceDate: '2026-12-07',
        date: '2026-11-25',
        title: 'Swim class (moved)',
      });
      expect((await search(api, 'swim'))[0]).to.include({
        date: '2026-11-25',
        title: 'Swim class (moved)',
      });
      await api.patch(`/calendar/events/${id}`, { status: 'archived' });
      expect(await search(api, 'swim')).to.deep.equal([]);
    });
  });

  describe("kept current with the family's writes", () => {
    it('finds what was just written and forgets what was changed, archived or deleted', async () => {
      const api = await family();
      expect(await search(api, 'trampoline')).to.deep.equal([]);
      const id = await entry(api, 'chores', 'Fix the trampoline');
      expect(titles(await search(api, 'trampoline'))).to.deep.equal(['Fix the trampoline']);
      await api.patch(`/trackers/chores/entries/${id}`, { title: 'Fix the swing' });
      expect(await search(api, 'trampoline')).to.deep.equal([]);
      expect(titles(await search(api, 'swing'))).to.deep.equal(['Fix the swing']);
      await api.patch(`/trackers/chores/entries/${id}`, { status: 'done' });
      expect((await search(api, 'swing'))[0].status).to.equal('done');
      await api.patch(`/trackers/chores/entries/${id}`, { status: 'archived' });
      expect(await search(api, 'swing')).to.deep.equal([]);
      await api.patch(`/trackers/chores/entries/${id}`, { status: 'active' });
      expect(titles(await search(api, 'swing'))).to.deep.equal(['Fix the swing']);
      await api.delete(`/trackers/chores/entries/${id}`);
      expect(await search(api, 'swing')).to.deep.equal([]);
    });

    it('never shows deleted people, or a deleted collection and its entries', async () => {
      const api = await family();
      const person = (await api.post('/people', { name: 'Grandpa Joe' })).body.person.id;
      await api.post('/trackers', {
        name: 'Garden tools',
        fields: [{ key: 'shed', label: 'Shed' }],
      });
      await entry(api, 'garden-tools', 'Garden hose', { shed: 'left' });
      expect(titles(await search(api, 'grandpa'))).to.deep.equal(['Grandpa Joe']);
      expect(titles(await search(api, 'garden')).sort()).to.deep.equal([
        'Garden hose',
        'Garden tools',
      ]);
      await api.delete(`/people/${person}`);
      await api.delete('/trackers/garden-tools');
      expect(await search(api, 'grandpa')).to.deep.equal([]);
      expect(await search(api, 'garden')).to.deep.equal([]);
    });

    it('stops finding a value when its field is removed from the collection, and finds it again when it returns', async () => {
      const api = await family();
      await api.post('/trackers', { name: 'Toys', fields: [{ key: 'note', label: 'Note' }] });
      await entry(api, 'toys', 'Red car', { note: 'xylophone box' });
      expect(titles(await search(api, 'xylophone'))).to.deep.equal(['Red car']);
      await api.patch('/trackers/toys', { fields: [] });
      expect(await search(api, 'xylophone')).to.deep.equal([]);
      await api.patch('/trackers/toys', { fields: [{ key: 'note', label: 'Note' }] });
      expect(titles(await search(api, 'xylophone'))).to.deep.equal(['Red car']);
    });

    it("never shows another family's records", async () => {
      const mine = await family();
      const theirs = await family();
      await entry(mine, 'chores', 'Walk the dog');
      await entry(theirs, 'chores', 'Walk the dog twice');
      await theirs.post('/people', { name: 'Doggy Dan' });
      expect(titles(await search(mine, 'walk dog'))).to.deep.equal(['Walk the dog']);
      expect(titles(await search(theirs, 'walk dog'))).to.deep.equal(['Walk the dog twice']);
      expect(await search(mine, 'doggy')).to.deep.equal([]);
    });
  });

  describe('without a query', () => {
    it('answers the next 7 days of events in order, open chores soonest first, then people', async () => {
      const api = await family();
      await event(api, {
        title: 'School run',
        date: '2026-11-02',
        time: '08:00',
        repeatFrequency: 'weekdays',
      });
      await event(api, { title: 'Birthday', date: '2026-11-28', allDay: true });
      await event(api, { title: 'Too late', date: '2026-11-29' }); // today + 7
      await event(api, { title: 'Archived plan', date: '2026-11-24' }).then((id) =>
        api.patch(`/calendar/events/${id}`, { status: 'archived' }),
      );
      await entry(api, 'chores', 'Later chore', { due: '2026-12-10' });
      await entry(api, 'chores', 'Undated chore');
      await entry(api, 'chores', 'Soon chore', { due: '2026-11-23' });
      const done = await entry(api, 'chores', 'Done chore', { due: '2026-11-22' });
      await api.patch(`/trackers/chores/entries/${done}`, { status: 'done' });
      await entry(api, 'groceries', 'Not a chore');
      await api.post('/people', { name: 'Ana' });
      for (const qs of ['', '?query=', '?query=%20%20']) {
        const r = await api.get(`/context${qs}`);
        expect(r.status).to.equal(200);
        await conforms(server, r, 'get', CONTEXT);
        expect(r.body.query).to.equal(null);
        expect(
          r.body.results.map((x: any) => [x.type, x.title, x.date ?? null, x.score]),
        ).to.deep.equal([
          ['event', 'School run', '2026-11-23', 0],
          ['event', 'School run', '2026-11-24', 0],
          ['event', 'School run', '2026-11-25', 0],
          ['event', 'School run', '2026-11-26', 0],
          ['event', 'School run', '2026-11-27', 0],
          ['event', 'Birthday', '2026-11-28', 0],
          ['entry', 'Soon chore', '2026-11-23', 0],
          ['entry', 'Later chore', '2026-12-10', 0],
          ['entry', 'Undated chore', null, 0],
          ['person', 'Ana', null, 0],
        ]);
      }
      // A day later the window has moved: Monday's run is past, the 29th is in.
      clock.set('2026-11-23T12:00:00.000Z');
      const next = (await api.get('/context')).body.results
        .filter((x: any) => x.type === 'event')
        .map((x: any) => `${x.title} ${x.date}`);
      expect(next).to.deep.equal([
        'School run 2026-11-23',
        'School run 2026-11-24',
        'School run 2026-11-25',
        'School run 2026-11-26',
        'School run 2026-11-27',
        'Birthday 2026-11-28',
        'Too late 2026-11-29',
      ]);
    });
  });

  describe('limits', () => {
    it('answers at most limit results: 1 and 50 are taken, 0, 51 and words are not', async () => {
      const api = await family();
      const items = Array.from({ length: 50 }, (_, i) => ({ title: `Apple ${i}` }));
      await api.post('/trackers/groceries/entries/batch', { items });
      await api.post('/trackers/groceries/entries/batch', {
        items: [{ title: 'Apple 50' }, { title: 'Apple 51' }],
      });
      expect(await search(api, 'apple')).to.have.length(20);
      expect(await search(api, 'apple', '&limit=1')).to.have.length(1);
      expect(await search(api, 'apple', '&limit=50')).to.have.length(50);
      for (const limit of ['0', '51', 'ten']) {
        const r = await api.get(`/context?query=apple&limit=${limit}`);
        expect(r.status, limit).to.equal(400);
        expect(r.body.issues[0].path).to.deep.equal(['query', 'limit']);
      }
    });

    it('takes a query of 200 characters and refuses 201', async () => {
      const api = await family();
      expect((await api.get(`/context?query=${'a'.repeat(200)}`)).status).to.equal(200);
      const r = await api.get(`/context?query=${'a'.repeat(201)}`);
      expect(r.status).to.equal(400);
      expect(r.body.issues).to.deep.equal([
        { path: ['query', 'query'], message: 'must be at most 200 characters long' },
      ]);
    });

    it('refuses unknown parameters, a read key may search and a key of another family may not', async () => {
      const api = await family();
      expect((await api.get('/context?q=x')).body.issues[0].path).to.deep.equal(['query', 'q']);
      const read = await server.key({ scopes: ['read'] });
      expect((await server.api.get('/context?query=x', { key: read })).status).to.equal(200);
      expect((await api.get('/context?query=x', { key: server.apiKey })).status).to.equal(403);
    });
  });
});
