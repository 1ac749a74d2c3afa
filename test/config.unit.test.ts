import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultFamilyZone, loadConfig, ConfigError } from '../src/config.js';

describe('configuration', () => {
  const dir = mkdtempSync(join(tmpdir(), 'household-config-'));
  const file = (name: string, body: unknown) => {
    const p = join(dir, name);
    writeFileSync(p, JSON.stringify(body));
    return p;
  };

  it('has every documented key with its default', () => {
    const c = loadConfig({ env: {} });
    expect(c.server).to.deep.equal({
      host: '0.0.0.0',
      port: 8080,
      publicUrl: null,
      bodyLimitBytes: 1048576,
      trustedProxies: [],
      corsOrigins: [],
    });
    expect(c.metrics).to.deep.equal({ enabled: false, token: null });
    expect(c.log).to.deep.equal({ level: 'info', format: 'auto' });
    expect(c.backup).to.deep.equal({ every: null, keep: 7, dir: null });
    expect(c.families).to.include({
      defaultTimezone: null,
      bootstrapSlug: 'home',
      actorIdleMinutes: 30,
    });
    expect(c.webhooks.retryScheduleSeconds).to.deep.equal([
      5, 300, 1800, 7200, 18000, 36000, 36000,
    ]);
    expect(c.egress).to.deep.equal({
      webPages: 'public',
      calendarFeeds: 'lan',
      webhooks: 'lan',
      transports: 'any',
    });
    expect(c.webSearch.searxngUrl).to.equal(null);
  });

  it("gives new families the machine's zone unless families.defaultTimezone names one: TZ, else the system's, else UTC", () => {
    const machine = (defaultTimezone: string | null, env: NodeJS.ProcessEnv) =>
      defaultFamilyZone(
        { families: { ...loadConfig({ env: {} }).families, defaultTimezone } },
        env,
      );
    expect(machine(null, { TZ: 'Pacific/Kiritimati' })).to.equal('Pacific/Kiritimati');
    expect(machine(null, { TZ: ':Europe/Lisbon' })).to.equal('Europe/Lisbon');
    // A TZ that names no IANA zone falls back to what the runtime resolves (a valid zone).
    const fallback = machine(null, { TZ: 'Mars/Base' });
    expect(fallback).to.not.equal('Mars/Base');
    expect(() => new Intl.DateTimeFormat('en', { timeZone: fallback })).to.not.throw();
    expect(machine('Asia/Tokyo', { TZ: 'Pacific/Kiritimati' })).to.equal('Asia/Tokyo');
  });

  it('merges file, then environment, then flags', () => {
    const f = file('a.json', { server: { port: 9000, host: '127.0.0.1' }, log: { level: 'warn' } });
    const c = loadConfig({
      configFile: f,
      env: { HOUSEHOLD_PORT: '9100', HOUSEHOLD_DATA_DIR: '/srv/data' },
      flags: { port: 9200 },
    });
    expect(c.server.port).to.equal(9200);
    expect(c.server.host).to.equal('127.0.0.1');
    expect(c.storage.dataDir).to.equal('/srv/data');
    expect(c.log.level).to.equal('warn');
    expect(c.server.bodyLimitBytes).to.equal(1048576);
  });

  it('reads HOUSEHOLD_CONFIG when --config is absent', () => {
    const f = file('b.json', { rateLimit: { perMinute: 60 } });
    expect(loadConfig({ env: { HOUSEHOLD_CONFIG: f } }).rateLimit.perMinute).to.equal(60);
  });

  it('names an unknown key', () => {
    const f = file('c.json', { weather: { forecastURL: 'x' } });
    expect(() => loadConfig({ configFile: f, env: {} })).to.throw(
      ConfigError,
      'unknown config key "weather.forecastURL"',
    );
  });

  it('names an ill-typed key', () => {
    expect(() => loadConfig({ env: { HOUSEHOLD_PORT: 'eighty' } })).to.throw(
      ConfigError,
      /HOUSEHOLD_PORT/,
    );
    const f = file('d.json', { egress: { webhooks: 'everywhere' } });
    expect(() => loadConfig({ configFile: f, env: {} })).to.throw(
      ConfigError,
      /config key "egress.webhooks" is invalid/,
    );
    const g = file('e.json', { server: { port: 70000 } });
    expect(() => loadConfig({ configFile: g, env: {} })).to.throw(ConfigError, /"server.port"/);
  });

  it('has no cluster by default, and fills a cluster section from the environment', () => {
    expect(loadConfig({ env: {} }).cluster).to.equal(null);
    const c = loadConfig({
      env: {
        HOUSEHOLD_NATS_SERVERS: 'nats://10.0.0.1:4222, nats://10.0.0.2:4222,',
        HOUSEHOLD_NODE_NAME: 'node-a',
        HOUSEHOLD_ADVERTISE_URL: 'http://10.0.0.1:8080',
        HOUSEHOLD_CLUSTER_SECRET: 's'.repeat(32),
      },
    });
    expect(c.cluster).to.deep.equal({
      natsServers: ['nats://10.0.0.1:4222', 'nats://10.0.0.2:4222'],
      nodeName: 'node-a',
      advertiseUrl: 'http://10.0.0.1:8080',
      secret: 's'.repeat(32),
      leaseSeconds: 10,
      replicas: 3,
      credsFile: null,
      tls: null,
    });
  });

  it('names the bad cluster key', () => {
    const base = {
      natsServers: ['nats://127.0.0.1:4222'],
      nodeName: 'a',
      advertiseUrl: 'http://127.0.0.1:1',
      secret: 'x'.repeat(32),
    };
    const bad = (over: object) => file('cl.json', { cluster: { ...base, ...over } });
    expect(
      loadConfig({ configFile: bad({ leaseSeconds: 2 }), env: {} }).cluster!.leaseSeconds,
    ).to.equal(2);
    expect(() =>
      loadConfig({ configFile: bad({ natsServers: ['http://x:1'] }), env: {} }),
    ).to.throw(ConfigError, /"cluster.natsServers.0" is invalid: must be a nats:\/\//);
    expect(() => loadConfig({ configFile: bad({ secret: 'short' }), env: {} })).to.throw(
      ConfigError,
      /"cluster.secret" is invalid/,
    );
    expect(() => loadConfig({ configFile: bad({ nodeName: 'a b' }), env: {} })).to.throw(
      ConfigError,
      /"cluster.nodeName" is invalid/,
    );
    expect(() => loadConfig({ configFile: bad({ natsServer: [] }), env: {} })).to.throw(
      ConfigError,
      'unknown config key "cluster.natsServer"',
    );
    expect(() =>
      loadConfig({ configFile: file('cl2.json', { cluster: { nodeName: 'a' } }), env: {} }),
    ).to.throw(ConfigError, /"cluster.natsServers" is invalid/);
  });

  it('takes publicUrl as an http(s) URL or null, and HOUSEHOLD_PUBLIC_URL empty as null', () => {
    expect(
      loadConfig({ env: { HOUSEHOLD_PUBLIC_URL: 'https://household.example.org/home' } }).server
        .publicUrl,
    ).to.equal('https://household.example.org/home');
    expect(loadConfig({ env: { HOUSEHOLD_PUBLIC_URL: '' } }).server.publicUrl).to.equal(null);
    for (const bad of [
      'not a url',
      'ftp://files.lan',
      'https://h.example/?x=1',
      'https://u:p@h.example',
    ])
      expect(() => loadConfig({ env: { HOUSEHOLD_PUBLIC_URL: bad } }), bad).to.throw(
        ConfigError,
        /config key "server.publicUrl" is invalid: must be an http:\/\/ or https:\/\/ URL/,
      );
  });

  it('takes trusted proxies as addresses and CIDR ranges, also from HOUSEHOLD_TRUSTED_PROXIES', () => {
    expect(
      loadConfig({ env: { HOUSEHOLD_TRUSTED_PROXIES: '127.0.0.1, 172.16.0.0/12,fd00::/8' } }).server
        .trustedProxies,
    ).to.deep.equal(['127.0.0.1', '172.16.0.0/12', 'fd00::/8']);
    expect(() => loadConfig({ env: { HOUSEHOLD_TRUSTED_PROXIES: 'proxy.lan' } })).to.throw(
      ConfigError,
      /"server.trustedProxies.0" is invalid: must be an IP address or a CIDR range/,
    );
  });

  it('keeps the old server.trustProxy as a deprecated switch, but not beside trustedProxies', () => {
    const old = file('tp.json', { server: { trustProxy: true } });
    expect(loadConfig({ configFile: old, env: {} }).server.trustProxy).to.equal(true);
    const both = file('tp2.json', { server: { trustProxy: true, trustedProxies: ['10.0.0.1'] } });
    expect(() => loadConfig({ configFile: both, env: {} })).to.throw(
      ConfigError,
      /"server.trustProxy" is invalid: it is replaced by server.trustedProxies/,
    );
  });

  it('switches metrics, log format and backups from the environment', () => {
    const c = loadConfig({
      env: {
        HOUSEHOLD_METRICS: '1',
        HOUSEHOLD_METRICS_TOKEN: 't'.repeat(20),
        HOUSEHOLD_LOG_FORMAT: 'pretty',
        HOUSEHOLD_BACKUP_EVERY: '6h',
        HOUSEHOLD_BACKUP_KEEP: '3',
        HOUSEHOLD_BACKUP_DIR: '/backups',
      },
    });
    expect(c.metrics).to.deep.equal({ enabled: true, token: 't'.repeat(20) });
    expect(c.log.format).to.equal('pretty');
    expect(c.backup).to.deep.equal({ every: '6h', keep: 3, dir: '/backups' });
    expect(loadConfig({ env: { HOUSEHOLD_METRICS: 'off' } }).metrics.enabled).to.equal(false);
    expect(() => loadConfig({ env: { HOUSEHOLD_METRICS: 'maybe' } })).to.throw(
      ConfigError,
      'HOUSEHOLD_METRICS must be 1 or 0 (true or false), got "maybe"',
    );
    expect(() => loadConfig({ env: { HOUSEHOLD_BACKUP_KEEP: 'all' } })).to.throw(
      ConfigError,
      /HOUSEHOLD_BACKUP_KEEP must be a whole number/,
    );
  });

  it('takes backup.every as a duration or a cron pattern, and names a bad one', () => {
    for (const every of ['30m', '6h', '1d', '2w', '0 3 * * *', '@daily'])
      expect(loadConfig({ env: { HOUSEHOLD_BACKUP_EVERY: every } }).backup.every).to.equal(every);
    for (const [every, why] of [
      ['1m', /must be at least 5m/],
      ['6 hours', /must be a duration such as 30m, 6h, 1d or 1w/],
      ['daily', /must be a duration such as 6h or 1d, or a cron pattern/],
      ['61 * * * *', /must be a duration such as 6h or 1d, or a cron pattern/],
    ] as const)
      expect(() => loadConfig({ env: { HOUSEHOLD_BACKUP_EVERY: every } }), every).to.throw(
        ConfigError,
        why,
      );
    const cluster = file('cb.json', {
      backup: { every: '1d' },
      cluster: {
        natsServers: ['nats://127.0.0.1:4222'],
        nodeName: 'a',
        advertiseUrl: 'http://127.0.0.1:1',
        secret: 'x'.repeat(32),
      },
    });
    expect(() => loadConfig({ configFile: cluster, env: {} })).to.throw(
      ConfigError,
      /"backup.every" is invalid: scheduled backups are for the embedded store/,
    );
  });

  it('explains a file that is not JSON', () => {
    const p = join(dir, 'broken.json');
    writeFileSync(p, '{ "server": ');
    expect(() => loadConfig({ configFile: p, env: {} })).to.throw(ConfigError, /not valid JSON/);
  });
});
