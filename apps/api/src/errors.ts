import { ERROR_DEFINITIONS, messageText, type ErrorCode } from '@portal/contracts';

export interface FieldError {
  field: string;
  message: string;
}

/** An error the API answers on purpose: its code decides the status, its message the text. */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    options: { message?: string; field?: string; fields?: FieldError[]; status?: number } = {},
  ) {
    super(messageText(options.message ?? ERROR_DEFINITIONS[code].message));
    this.status = options.status ?? ERROR_DEFINITIONS[code].status;
    this.field = options.field ?? options.fields?.[0]?.field;
    this.fields = options.fields;
  }

  readonly field: string | undefined;
  readonly fields: FieldError[] | undefined;

  /** Fastify's name for the status, so an error handler of a hosted plugin (the regions) answers it too. */
  get statusCode(): number {
    return this.status;
  }

  toBody() {
    return {
      code: this.code,
      message: this.message,
      ...(this.field ? { field: this.field } : {}),
      ...(this.fields ? { fields: this.fields } : {}),
    };
  }
}

/** Turns zod issues into field errors with the English wording of their message keys. */
function fieldErrorsFromIssues(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): FieldError[] {
  return issues.map((issue) => ({
    field: issue.path.map(String).join('.') || 'body',
    message: messageText(issue.message),
  }));
}

export function validationError(issues: readonly { path: readonly PropertyKey[]; message: string }[]): AppError {
  const fields = fieldErrorsFromIssues(issues);
  const first = fields[0];
  return new AppError('VALIDATION_ERROR', {
    message: first ? `${first.field}: ${first.message}` : undefined,
    fields,
  });
}
