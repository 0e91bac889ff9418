import fp from 'fastify-plugin';
import type { Config } from '../config.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The configuration, loaded and checked at start (config.ts). */
    config: Config;
  }
}

/** The configuration, for every plugin and module that reads it. */
export const configPlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    app.decorate('config', config);
  },
  { name: 'config' },
);
