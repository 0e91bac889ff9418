import { resolveDataDirSecret } from '../../auth/secret.ts';
import type { Config } from '../../config.ts';

/** Where the generated operator token is kept in the data dir; the operator CLI reads it from there. */
export const OPERATOR_TOKEN_FILE = 'operator-token';

/** OPERATOR_TOKEN when configured; otherwise one generated once into the data dir, shared by every instance on it. */
export function operatorToken(config: Config): string {
  return resolveDataDirSecret(config.operatorToken, config.dataDir, OPERATOR_TOKEN_FILE);
}
