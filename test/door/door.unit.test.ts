/**
 * Which door a request is under: the longest prefix its path matches (a `:name` segment
 * matching any one segment), a door that claims it beyond its prefixes, else the first door.
 */
import { expect } from 'chai';
import { doorFinder, type Door } from '../../src/door/door.js';

const door = (name: string, prefixes: string[], claims?: Door['claims']) =>
  ({ name, prefixes, ...(claims ? { claims } : {}) }) as unknown as Door;

describe('doorFinder', () => {
  const find = doorFinder([
    door('rest', ['/api/', '/healthz']),
    door('stream', ['/api/v1/families/:familySlug/changes/stream']),
    door('mcp', ['/mcp']),
    door('caldav', ['/dav/'], (method, path) => path === '/' && method === 'PROPFIND'),
  ]);
  const name = (method: string, path: string) => find(method, path).name;

  it('takes the longest prefix a path matches, whatever the method', () => {
    expect(name('GET', '/api/v1/families/home/people')).to.equal('rest');
    expect(name('GET', '/api/v1/families/home/changes/stream')).to.equal('stream');
    expect(name('DELETE', '/api/v1/families/home/changes/stream')).to.equal('stream');
    expect(name('REPORT', '/dav/home/nope/')).to.equal('caldav');
  });

  it('owns a folder with or without its slash, and nothing that only starts alike', () => {
    expect(name('PROPFIND', '/dav')).to.equal('caldav');
    expect(name('GET', '/davx')).to.equal('rest');
    expect(name('POST', '/mcp/x')).to.equal('mcp');
    expect(name('POST', '/mcpx')).to.equal('rest');
    expect(name('GET', '/api/v1/families//changes/stream')).to.equal('rest');
  });

  it('asks the doors that claim more, and falls back to the first door', () => {
    expect(name('PROPFIND', '/')).to.equal('caldav');
    expect(name('GET', '/')).to.equal('rest');
    expect(name('GET', '/favicon.ico')).to.equal('rest');
  });
});
