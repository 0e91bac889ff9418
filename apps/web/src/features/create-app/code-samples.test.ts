import { REGION_KEYS } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { PLATFORMS, PRODUCT_TYPES, codeSamples, sampleClientCommand } from './code-samples';

const apiKey = 'key_3f9a0c71';

describe('codeSamples', () => {
  for (const platform of PLATFORMS) {
    for (const type of PRODUCT_TYPES) {
      it(`${platform} ${type}: installs the package and initialises with the key and region`, () => {
        for (const region of REGION_KEYS) {
          const samples = codeSamples(platform, type, { apiKey, region });
          expect(samples.map((sample) => sample.kind)).toEqual(['install', 'initialize']);
          const init = samples[1]?.code ?? '';
          expect(init).toContain(apiKey);
          expect(init.toLowerCase()).toContain(region.toLowerCase());
          expect(samples[0]?.code).not.toContain(apiKey);
        }
      });
    }
  }

  it('names a different package for the UI kit and the SDK', () => {
    for (const platform of PLATFORMS) {
      const uikit = codeSamples(platform, 'uikit', { apiKey, region: 'EU' })[0]?.code;
      const sdk = codeSamples(platform, 'sdk', { apiKey, region: 'EU' })[0]?.code;
      expect(uikit).not.toBe(sdk);
    }
  });

  it('writes the region of the application, not another one', () => {
    const init = codeSamples('react', 'sdk', { apiKey, region: 'SG' })[1]?.code ?? '';
    expect(init).toContain("region: 'sg'");
    expect(init).not.toContain("'eu'");
  });
});

it('builds the sample client command for the region and key', () => {
  expect(sampleClientCommand('EU', apiKey, 'https://portal.example.com', '/regions/eu')).toBe(
    `npm run sdk -- ping --region eu --api-key ${apiKey} --user alice --base-url https://portal.example.com`,
  );
});

it('names a region at its own address to the sample client', () => {
  expect(
    sampleClientCommand('US', apiKey, 'https://portal.example.com', 'https://us.region.example/api'),
  ).toBe(
    `REGION_US_URL=https://us.region.example/api npm run sdk -- ping --region us --api-key ${apiKey} --user alice --base-url https://portal.example.com`,
  );
});
