/**
 * The error every layer throws for an expected failure; the handler turns it
 * into `{error:{code,message}}` with the registry's status.
 */
import { errorRegistry, type ErrorCode } from './registry.js';

export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly headers?: Record<string, string>,
  ) {
    super(message ?? errorRegistry[code].message);
    this.name = 'AppError';
    this.status = errorRegistry[code].status;
  }
}

export const notFound = (what: string): AppError => new AppError('not_found', `${what} was not found.`);
export const invalid = (message: string): AppError => new AppError('validation_failed', message);
