import type { Db } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { findMailMessage, listMailMessages } from './dev-mailbox.repository.ts';

export interface DevMailboxDeps {
  db: Db;
}

export function devMailboxService({ db }: DevMailboxDeps) {
  return {
    /** The newest mail first, to one address when given (compared as stored: lower case). */
    list(to: string | undefined) {
      return listMailMessages(db, to?.trim().toLowerCase() || undefined);
    },

    async get(id: number) {
      const message = await findMailMessage(db, id);
      if (!message) throw new AppError('NOT_FOUND');
      return message;
    },
  };
}
