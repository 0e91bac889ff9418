import fp from 'fastify-plugin';

/**
 * While the server closes, every answer closes its connection after it: a keep-alive connection
 * left open after the last request under way would hold the close until it timed out (72 s).
 */
export const gracefulClosePlugin = fp(
  async (app) => {
    let closing = false;
    app.addHook('preClose', async () => {
      closing = true;
    });
    app.addHook('onSend', async (_request, reply, payload) => {
      if (closing) reply.header('connection', 'close');
      return payload;
    });
  },
  { name: 'graceful-close' },
);
