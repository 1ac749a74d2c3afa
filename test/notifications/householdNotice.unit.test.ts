/**
 * householdNotice: the pure helper other areas' deciders call to tell the household something
 * in-app (the webhooks outbox, when it disables a destination that failed for 5 days).
 */
import { expect } from 'chai';
import { householdNotice } from '../../src/domain/notifications/compose.js';
import { listNotifications } from '../../src/domain/notifications/manual.js';
import { AGENDA_TABLE } from '../../src/domain/shared/agenda.js';
import { fixture } from '../domain/collections/fixture.js';

describe('householdNotice', () => {
  it('returns the changes and events of one in-app notification record, and the pruning job', () => {
    const f = fixture();
    const d = householdNotice(f.state, f.ctx(), {
      text: {
        title: 'Webhook destination disabled',
        body: 'Home Assistant failed every delivery for 5 days',
      },
    });
    expect(d.changes).to.have.length(1);
    expect(d.changes[0].table).to.equal('notifications');
    const record = d.changes[0].value as any;
    expect(record).to.deep.include({
      kind: 'notice',
      title: 'Webhook destination disabled',
      body: 'Home Assistant failed every delivery for 5 days',
      channels: ['in_app'],
      deliveries: [{ channel: 'in_app', status: 'delivered' }],
    });
    expect(d.events.map((e) => e.type)).to.deep.equal(['notification.sent']);
    expect(d.events[0].object as any).to.include({
      id: record.id,
      delivered: 1,
      suppressed: 0,
      pending: 0,
    });
    expect(d.agenda).to.deep.equal([
      {
        put: {
          id: 'notify:prune',
          kind: 'notify.prune',
          dueAt: Date.parse('2026-11-22T08:30:00.000Z') + 30 * 86_400_000,
        },
      },
    ]);
    // Applied like the actor applies a decision, it is listed like any other notification.
    f.state.apply(d.changes);
    expect(
      listNotifications(f.state, {}, new Date('2026-11-22T09:00:00.000Z')).notifications.map(
        (n) => n.title,
      ),
    ).to.deep.equal(['Webhook destination disabled']);
  });

  it('leaves the pruning job alone when the family already has one', () => {
    const f = fixture();
    f.state.apply([
      {
        table: AGENDA_TABLE,
        id: 'notify:prune',
        value: { id: 'notify:prune', kind: 'notify.prune', dueAt: 1 },
      },
    ]);
    const d = householdNotice(f.state, f.ctx(), { kind: 'notice', text: { title: 't', body: '' } });
    expect(d.agenda).to.deep.equal([]);
  });
});
