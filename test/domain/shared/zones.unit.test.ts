import { expect } from 'chai';
import { resolveTimeZone, windowsZone } from '../../../src/domain/shared/zones.js';

describe('resolveTimeZone', () => {
  it('answers IANA names with their own casing, links kept', () => {
    expect(resolveTimeZone('America/New_York')).to.equal('America/New_York');
    expect(resolveTimeZone(' europe/berlin ')).to.equal('Europe/Berlin');
    expect(resolveTimeZone('Asia/Calcutta')).to.equal('Asia/Calcutta');
    expect(resolveTimeZone('UTC')).to.equal('UTC');
  });

  it('maps the Windows names clients send to IANA (CLDR windowsZones), in any case', () => {
    expect(resolveTimeZone('W. Europe Standard Time')).to.equal('Europe/Berlin');
    expect(resolveTimeZone('Eastern Standard Time')).to.equal('America/New_York');
    expect(resolveTimeZone('pacific standard time')).to.equal('America/Los_Angeles');
    expect(resolveTimeZone('GMT Standard Time')).to.equal('Europe/London');
    expect(resolveTimeZone('Tokyo Standard Time')).to.equal('Asia/Tokyo');
    expect(windowsZone('India Standard Time')).to.equal('Asia/Kolkata');
  });

  it('answers null for names that are neither, and for offsets', () => {
    for (const name of ['', 'Mars/Olympus_Mons', 'Eastern Time', '+01:00', 'GMT+1'])
      expect(resolveTimeZone(name), name).to.equal(null);
  });
});
