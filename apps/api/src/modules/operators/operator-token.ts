import { OPERATOR_TOKEN_FILE, resolveDataDirSecret } from '../../auth/secret.ts';
import type { Config } from '../../config.ts';

/** OPERATOR_TOKEN when configured; otherwise one generated once into the data dir, shared by every instance on it. */
export function operatorToken(config: Config): string {
  return resolveDataDirSecret(config.operatorToken, config.dataDir, OPERATOR_TOKEN_FILE);
}
