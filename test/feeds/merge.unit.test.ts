import { expect } from 'chai';
import { fixture } from '../domain/collections/fixture.js';
import { feedItems } from '../../src/domain/feeds/convert.js';
import { decideLinkFeed } from '../../src/domain/feeds/feeds.js';
import { applyRefresh } from '../../src/domain/feeds/refresh.js';
import { feedEventId } from '../../src/domain/feeds/identity.js';
import { getFeed } from '../../src/domain/feeds/views.js';
import { parseIcs } from '../../src/integrations/icsParse.js';
import type { FeedSnapshot } from '../../src/domain/feeds/types.js';
import type { EventRecord } from '../../src/domain/calendar/types.js';

function snapshot(events: string[][]): FeedSnapshot {
  const body = [
    'BEGIN:VCALENDAR',
    ...events.flatMap((e) => ['BEGIN:VEVENT', ...e, 'END:VEVENT']),
    'END:VCALENDAR',
  ].join('\r\n');
  const cal = parseIcs(body, { defaultZone: 'UTC', now: new Date('2026-11-22T00:00:00Z') });
  return {
    calendarName: null,
    ttlMinutes: null,
    items: feedItems(cal, 'UTC'),
    eventCount: cal.eventCount,
    skipped: 0,
    bodyHash: 'h1',
    etag: '"1"',
    lastModified: null,
    zone: 'UTC',
  };
}

const A = ['UID:a', 'SUMMARY:A', 'DTSTART:20261201T090000Z'];
const B = ['UID:b', 'SUMMARY:B', 'DTSTART:20261202T090000Z'];

describe('merging a refresh over stored feed events', () => {
  it('takes the ids a refresh found unchanged as kept, and forgets the validators when one is not stored', () => {
    const f = fixture();
    const linked = f.run((s, c) =>
      decideLinkFeed(
        s,
        {
          name: 'Club',
          address: { url: 'https://x.example/c.ics', credentials: null },
          snapshot: snapshot([A, B]),
          refreshMinutes: 60,
        },
        c,
      ),
    );
    const id = linked.result.feed.id;
    const idA = feedEventId(id, 'a\n');
    const idB = feedEventId(id, 'b\n');
    // Everything unchanged: nothing but the feed record is written.
    const same = f.run(
      applyRefresh(id, { ...snapshot([]), items: [], unchanged: [idA, idB], bodyHash: 'h2' }, 60),
    );
    expect(same.changes.map((c) => c.table)).to.deep.equal(['calendar_feeds']);
    expect(getFeed(f.state, id)).to.include({ bodyHash: 'h2', eventCount: 2 });
    // An unchanged id the store does not have: the snapshot was taken against other records.
    const ghost = feedEventId(id, 'ghost\n');
    f.run(
      applyRefresh(id, { ...snapshot([]), items: [], unchanged: [idA, ghost], bodyHash: 'h3' }, 60),
    );
    const feed = getFeed(f.state, id)!;
    expect(feed).to.include({ bodyHash: null, etag: null, eventCount: 1 });
    expect(f.state.get<EventRecord>('entries', idB)).to.equal(undefined);
  });
});
