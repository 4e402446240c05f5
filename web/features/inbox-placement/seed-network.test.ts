import { describe, expect, it } from 'vitest';
import {
  activeTestsPollInterval,
  ACTIVE_TESTS_POLL_MS,
  seedNetworkStatusQueryOptions,
  SEED_NETWORK_POLL_MS,
} from './api';
import { DEFAULT_REGION_TILES, regionsOf, seedNetworkView } from './seed-network';
import { makeInboxTest, makeSeedStatus } from './test/fixtures';
import { testStatusDisplay, testSubject } from './test-status';

describe('seedNetworkView', () => {
  it('shows the real figures when the status call answers, regions in the spec order', () => {
    const view = seedNetworkView({
      data: makeSeedStatus({ byRegion: { Oceania: 1, Europe: 2, 'North America': 5 } }),
      isError: false,
    });
    expect(view).toEqual({
      kind: 'live',
      totalProviders: 4,
      totalAddresses: 6,
      regions: [
        { region: 'North America', providers: 5 },
        { region: 'Europe', providers: 2 },
        { region: 'Oceania', providers: 1 },
      ],
      tiles: [
        { region: 'North America', providers: 5 },
        { region: 'Europe', providers: 2 },
        { region: 'Oceania', providers: 1 },
      ],
    });
  });

  it('says so when no seed network is configured, with no figures at all', () => {
    expect(
      seedNetworkView({
        data: makeSeedStatus({ configured: false, totalProviders: 0, totalAddresses: 0, byRegion: {} }),
        isError: false,
      }),
    ).toEqual({
      kind: 'not-configured',
    });
  });

  it('falls back to the spec defaults only when the call failed (part 2, section 9)', () => {
    const view = seedNetworkView({ data: undefined, isError: true });
    expect(view).toMatchObject({ kind: 'fallback', totalProviders: 31, totalAddresses: 42 });
    if (view.kind !== 'fallback') throw new Error('expected the fallback');
    expect(view.regions.map(({ region, providers }) => `${region} ${providers}`)).toEqual([
      'North America 8',
      'Europe 7',
      'Asia Pacific 6',
      'Latin America 5',
      'Middle East & Africa 5',
    ]);
    expect(view.tiles.map(({ region, providers }) => `${region} ${providers}`)).toEqual([
      'North America 15',
      'Europe 12',
      'Asia Pacific 10',
      'Latin America 5',
      'Africa & Middle East 3',
    ]);
    expect(seedNetworkView({ data: undefined, isError: false })).toEqual({ kind: 'loading' });
    // A failed refresh after a real answer keeps the real figures.
    expect(seedNetworkView({ data: makeSeedStatus(), isError: true }).kind).toBe('live');
  });

  it('keeps the tile defaults and the region list apart', () => {
    expect(DEFAULT_REGION_TILES).toHaveLength(5);
    expect(regionsOf({})).toEqual([]);
  });
});

describe('polling', () => {
  it('asks for the seed network status every 30 s', () => {
    expect(SEED_NETWORK_POLL_MS).toBe(30_000);
    expect(seedNetworkStatusQueryOptions().refetchInterval).toBe(30_000);
    expect(seedNetworkStatusQueryOptions().queryKey).toEqual(['/api/seed-network/status']);
  });

  it('asks for the list every 5 s only while a test is awaiting its email or running', () => {
    const poll = (statuses: Array<'awaiting_email' | 'running' | 'completed' | 'failed'>) =>
      activeTestsPollInterval({
        state: { data: statuses.map((status, id) => makeInboxTest({ id, status })) } as never,
      });
    expect(ACTIVE_TESTS_POLL_MS).toBe(5_000);
    expect(poll(['completed', 'awaiting_email'])).toBe(5_000);
    expect(poll(['running'])).toBe(5_000);
    expect(poll(['completed', 'failed'])).toBe(false);
    expect(poll([])).toBe(false);
  });
});

describe('test status and subject', () => {
  it('labels running, completed and failed; anything else is neutral', () => {
    expect(testStatusDisplay('running')).toEqual({ label: 'Running', tone: 'warn' });
    expect(testStatusDisplay('completed')).toEqual({ label: 'Completed', tone: 'good' });
    expect(testStatusDisplay('failed')).toEqual({ label: 'Failed', tone: 'bad' });
    expect(testStatusDisplay('awaiting_email')).toEqual({ label: 'Awaiting email', tone: 'none' });
    expect(testStatusDisplay('queued_somewhere')).toEqual({ label: 'Queued somewhere', tone: 'none' });
  });

  it('falls back to the default subject "Inbox Test {id}"', () => {
    expect(testSubject({ id: 9, subject: null })).toBe('Inbox Test 9');
    expect(testSubject({ id: 9, subject: '[TEST-9] Spring sale' })).toBe('[TEST-9] Spring sale');
  });
});
