import { desc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { mailMessage } from '../../db/schema.ts';

/*
 * The development outbox keeps every organisation's mail for the developer running the portal, so
 * its reads are not scoped by organisation; it is never mounted in production.
 */

/** How many messages a list shows. */
const LIST_LIMIT = 100;

/** The newest messages, to one address when given. */
export async function listMailMessages(executor: Executor, toAddress: string | undefined) {
  return executor
    .select()
    .from(mailMessage)
    .where(toAddress ? eq(mailMessage.toAddress, toAddress) : undefined)
    .orderBy(desc(mailMessage.id))
    .limit(LIST_LIMIT);
}

export async function findMailMessage(executor: Executor, id: number) {
  const [message] = await executor.select().from(mailMessage).where(eq(mailMessage.id, id));
  return message;
}
