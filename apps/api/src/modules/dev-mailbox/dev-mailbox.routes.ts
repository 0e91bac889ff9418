import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { devMailboxService } from './dev-mailbox.service.ts';
import { escapeHtml } from '../../http/escape-html.ts';

/** The development outbox at /dev/mailbox: every stored mail, newest first. Never mounted in production. */
export async function devMailboxRoutes(app: FastifyInstance) {
  const service = devMailboxService({ db: app.database.db });
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/messages', { schema: { querystring: z.object({ to: z.string().optional() }) } }, async (request) =>
    service.list(request.query.to),
  );

  r.get(
    '/messages/:id',
    { schema: { params: z.object({ id: z.coerce.number().int().positive() }) } },
    async (request, reply) => {
      const message = await service.get(request.params.id);
      // The stored HTML is the portal's own mail; a sandbox keeps its links from touching this page.
      reply.header(
        'content-security-policy',
        "sandbox allow-popups allow-popups-to-escape-sandbox; default-src 'none'; style-src 'unsafe-inline'",
      );
      return reply.type('text/html').send(message.html);
    },
  );

  r.get('/', async (_request, reply) => {
    const rows = (await service.list(undefined))
      .map(
        (m) =>
          `<tr><td>${m.createdAt.toISOString().replace('T', ' ').slice(0, 19)}</td><td>${escapeHtml(m.toAddress)}</td>` +
          `<td><a href="/dev/mailbox/messages/${m.id}">${escapeHtml(m.subject)}</a></td>` +
          `<td><pre>${escapeHtml(m.text)}</pre></td></tr>`,
      )
      .join('');
    const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dev mailbox</title>
<style>body{font-family:system-ui,sans-serif;margin:24px}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:8px;text-align:left;vertical-align:top}pre{white-space:pre-wrap;margin:0;font-size:12px}</style></head>
<body><main><h1>Dev mailbox</h1><p>Mail the portal sent while SMTP_URL is unset (newest first).</p>
<table><thead><tr><th>Sent</th><th>To</th><th>Subject</th><th>Text</th></tr></thead><tbody>${rows || '<tr><td colspan="4">No mail yet.</td></tr>'}</tbody></table></main></body></html>`;
    return reply.type('text/html').send(page);
  });
}
