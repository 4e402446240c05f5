import { describe, expect, it } from 'vitest';
import { keyInWords } from './components/metadata-pairs';

describe('alert metadata keys in words', () => {
  it('reads camelCase and snake_case keys as words, with protocol names as their RFCs write them', () => {
    expect(keyInWords('spfRecord')).toBe('SPF record');
    expect(keyInWords('old_value')).toBe('Old value');
    expect(keyInWords('dmarc')).toBe('DMARC');
    expect(keyInWords('ipAddress')).toBe('IP address');
    expect(keyInWords('listedCount')).toBe('Listed count');
  });
});
