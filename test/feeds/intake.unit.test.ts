import { expect } from 'chai';
import { hintWords, intakeUpdate, matchesHint } from '../../src/domain/feeds/intake.js';
import { feedEventId } from '../../src/domain/feeds/identity.js';
import { refreshInterval, scheduleNext } from '../../src/domain/feeds/schedule.js';
import { hasPrefix } from '../../src/domain/shared/ids.js';
import type { EventRecord } from '../../src/domain/calendar/types.js';

const ev = (id: string, title: string, description?: string): EventRecord => ({
  id,
  collectionKey: 'school',
  title,
  status: 'active',
  data: { date: '2026-12-01', ...(description ? { description } : {}) },
  createdAt: '',
  updatedAt: '',
});

describe('feed intake (hint words)', () => {
  it('splits the hint into folded words', () => {
    expect(hintWords('Trip, Concert;  Überraschung trip')).to.deep.equal([
      'trip',
      'concert',
      'uberraschung',
    ]);
    expect(hintWords(null)).to.deep.equal([]);
    expect(hintWords('  ')).to.deep.equal([]);
  });

  it('matches a word that begins a word of the text, ignoring case and accents', () => {
    const words = hintWords('swim, café');
    expect(matchesHint('Swimming gala', words)).to.equal(true);
    expect(matchesHint('Parents meet at the CAFE', words)).to.equal(true);
    expect(matchesHint('Preswim warm-up', words)).to.equal(false);
    expect(matchesHint('anything', [])).to.equal(false);
  });

  it('answers the matching titles (once each) and ids, and the text of the notification; null without hint or match', () => {
    const feed = { id: 'src_x', name: 'School', hint: 'trip, concert' };
    const events = [
      ev('ent_1', 'Class trip'),
      ev('ent_2', 'Sports day', 'after the concert'),
      ev('ent_3', 'Class trip'),
      ev('ent_4', 'Holiday'),
    ];
    expect(intakeUpdate(feed, events)).to.deep.equal({
      sourceId: 'src_x',
      feedName: 'School',
      titles: ['Class trip', 'Sports day'],
      eventIds: ['ent_1', 'ent_2', 'ent_3'],
      title: 'New in School: Class trip, Sports day',
    });
    expect(intakeUpdate({ ...feed, hint: null }, events)).to.equal(null);
    expect(intakeUpdate(feed, [ev('ent_4', 'Holiday')])).to.equal(null);
  });
});

describe('feed event ids and refresh times', () => {
  it('derives the same entry-shaped id from the same feed and event, another from another feed', () => {
    const a = feedEventId('src_01kaq5m2v8x3c4d5e6f7', 'uid@x\n');
    expect(hasPrefix(a, 'ent')).to.equal(true);
    expect(feedEventId('src_01kaq5m2v8x3c4d5e6f7', 'uid@x\n')).to.equal(a);
    expect(feedEventId('src_01kaq5m2v8x3c4d5e6f8', 'uid@x\n')).not.to.equal(a);
    expect(feedEventId('src_01kaq5m2v8x3c4d5e6f7', 'uid@x\n2026-01-01')).not.to.equal(a);
  });

  it("refreshes every refreshMinutes, or the feed's longer TTL up to a day, plus at most a tenth of jitter", () => {
    expect(refreshInterval({ ttlMinutes: null }, 60)).to.equal(60);
    expect(refreshInterval({ ttlMinutes: 15 }, 60)).to.equal(60);
    expect(refreshInterval({ ttlMinutes: 240 }, 60)).to.equal(240);
    expect(refreshInterval({ ttlMinutes: 10_080 }, 60)).to.equal(1440);
    const now = new Date('2026-11-22T08:30:00Z');
    const dues = Array.from({ length: 50 }, (_, i) => {
      const c = scheduleNext({ id: `src_${i}`, ttlMinutes: null }, now, 60);
      return 'put' in c ? c.put.dueAt - now.getTime() : -1;
    });
    for (const d of dues) expect(d).to.be.within(60 * 60_000, 66 * 60_000);
    expect(new Set(dues).size).to.be.greaterThan(40); // spread, not all at once
  });
});
