import type { RegionKey } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { closestRegion, regionBaseUrlIn, type RegionPinger } from './region';

const after = (ms: number, ok = true) =>
  new Promise<void>((resolve, reject) => setTimeout(ok ? resolve : () => reject(new Error('down')), ms));

describe('closestRegion', () => {
  it('picks the region that answers first', async () => {
    const delays: Record<RegionKey, number> = { SG: 30, EU: 20, US: 5 };
    expect(await closestRegion((key) => after(delays[key]))).toBe('US');
  });

  it('ignores regions that fail, even when they fail first', async () => {
    const ping: RegionPinger = (key) => (key === 'SG' ? after(15) : after(1, false));
    expect(await closestRegion(ping)).toBe('SG');
  });

  it('falls back to Europe when every region fails', async () => {
    expect(await closestRegion(() => after(1, false))).toBe('EU');
  });

  it('falls back to Europe when no region answers in time', async () => {
    expect(await closestRegion(() => after(200), 10)).toBe('EU');
  });

  it('aborts the slower pings once one has answered', async () => {
    const signals: AbortSignal[] = [];
    const ping: RegionPinger = (key, signal) => {
      signals.push(signal);
      return after(key === 'EU' ? 1 : 50);
    };
    await closestRegion(ping);
    expect(signals.every((signal) => signal.aborted)).toBe(true);
  });
});

it("takes each region's base from the public configuration, without a trailing slash", () => {
  const config = {
    regionBaseUrls: {
      SG: '/regions/sg',
      EU: 'https://eu.region.example/regions/eu/',
      US: 'http://127.0.0.1:4100/us',
    },
  };
  expect(regionBaseUrlIn(config, 'SG')).toBe('/regions/sg');
  expect(regionBaseUrlIn(config, 'EU')).toBe('https://eu.region.example/regions/eu');
  expect(regionBaseUrlIn(config, 'US')).toBe('http://127.0.0.1:4100/us');
});
