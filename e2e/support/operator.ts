import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type {
  CreateMiscellaneousChargeResponse,
  GrantCreditResponse,
  ImportUsageResponse,
  OperatorOrganization,
  RunBillingResponse,
  VoidMiscellaneousChargeResponse,
} from '@portal/contracts';
import { DATA_DIR_ENV, REPO_ROOT } from '../harness/harness-state.ts';

const run = promisify(execFile);

/** A running portal as the operator CLI reaches it: its address and the data dir holding its operator token. */
export interface OperatedPortal {
  baseURL: string;
  dataDir: string;
}

/** The portal every test shares, started by the global setup. */
export function sharedPortal(baseURL: string): OperatedPortal {
  const dataDir = process.env[DATA_DIR_ENV];
  if (!dataDir) throw new Error(`${DATA_DIR_ENV} is not set: run the tests through e2e/playwright.config.ts`);
  return { baseURL, dataDir };
}

/**
 * The operator CLI as an operator runs it (`npm run portal -- <command> --json`), against the
 * portal's operator API with the token the portal wrote into its data dir.
 */
export class Operator {
  constructor(private readonly portal: OperatedPortal) {}

  async run<T>(...command: string[]): Promise<T> {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORTAL_URL: this.portal.baseURL,
      PORTAL_DATA_DIR: this.portal.dataDir,
    };
    delete env.OPERATOR_TOKEN;
    try {
      const { stdout } = await run('npm', ['run', '--silent', 'portal', '--', ...command, '--json'], {
        cwd: REPO_ROOT,
        env,
        timeout: 120_000,
      });
      return JSON.parse(stdout) as T;
    } catch (error) {
      const { stdout, stderr } = error as { stdout?: string; stderr?: string };
      throw new Error(`npm run portal -- ${command.join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`, {
        cause: error,
      });
    }
  }

  /** `org set-contract <org> --type …` with the flags as the operator types them. */
  setContract(org: string, ...flags: string[]): Promise<OperatorOrganization> {
    return this.run('org', 'set-contract', org, ...flags);
  }

  grantCredit(org: string, amount: string, note: string): Promise<GrantCreditResponse> {
    return this.run('org', 'grant-credit', org, '--amount', amount, '--note', note);
  }

  /** `billing charge <org> --amount … --notes …`: a miscellaneous charge, open until paid by card. */
  raiseCharge(org: string, amount: string, notes: string): Promise<CreateMiscellaneousChargeResponse> {
    return this.run('billing', 'charge', org, '--amount', amount, '--notes', notes);
  }

  /** `billing void-charge <org> <transaction id> --reason …`: an open miscellaneous charge no longer due. */
  voidCharge(org: string, transactionId: string, reason: string): Promise<VoidMiscellaneousChargeResponse> {
    return this.run('billing', 'void-charge', org, transactionId, '--reason', reason);
  }

  /** `usage import`, of this month (the portal's clock) unless a month is named. */
  importUsage(month?: string): Promise<ImportUsageResponse> {
    return this.run('usage', 'import', ...(month ? ['--month', month] : []));
  }

  runBilling(month: string, org: string): Promise<RunBillingResponse> {
    return this.run('billing', 'run', '--month', month, '--org', org);
  }
}
