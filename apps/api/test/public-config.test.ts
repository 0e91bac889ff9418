import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { useTestApp } from './helper.ts';

describe('public configuration: the finish-setup guides', () => {
  const configured = useTestApp({
    HELP_MANAGE_COMMUNITY_URL: 'https://guides.acme.test/community',
    HELP_CREATE_CHANNEL_URL: 'https://guides.acme.test/channel',
    HELP_DOCS_URL: 'https://guides.acme.test/',
  });
  const defaults = useTestApp();

  it('answers the configured guide of each card, signed out too', async () => {
    const response = await configured.app.inject({ method: 'GET', url: '/api/v1/config' });
    expect(response.statusCode).toBe(200);
    expect(response.json().helpLinks).toMatchObject({
      manageCommunity: 'https://guides.acme.test/community',
      createChannel: 'https://guides.acme.test/channel',
      documentation: 'https://guides.acme.test/',
    });
  });

  it('has three different guides by default', async () => {
    const { helpLinks } = (await defaults.app.inject({ method: 'GET', url: '/api/v1/config' })).json();
    const guides = [helpLinks.manageCommunity, helpLinks.createChannel, helpLinks.documentation];
    expect(guides.every((url: unknown) => typeof url === 'string' && url.startsWith('https://'))).toBe(true);
    expect(new Set(guides).size).toBe(3);
  });

  it.each(['HELP_MANAGE_COMMUNITY_URL', 'HELP_CREATE_CHANNEL_URL'])('refuses to start with %s that is not a URL', (name) => {
    expect(() => loadConfig({ [name]: 'docs.acme.test/guide' })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: 'docs.acme.test/guide' })).toThrow(name);
  });
});
