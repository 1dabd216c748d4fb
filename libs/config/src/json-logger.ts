import type { LoggerService } from '@nestjs/common';

/**
 * One JSON object per line on stdout (errors on stderr): `{"time","level","app","context","msg",…}`,
 * with the fields a caller passes in an object message (`jobId`, `submissionId`, `requestId`).
 * Chosen with PODIUM_LOG_FORMAT=json (the default outside a terminal); `text` keeps Nest's.
 */
export class JsonLogger implements LoggerService {
  constructor(
    private readonly app: string,
    private readonly write: (line: string, isError: boolean) => void = (line, isError) => (isError ? process.stderr : process.stdout).write(line + '\n'),
  ) {}

  private emit(level: string, message: unknown, params: unknown[]): void {
    const context = typeof params[params.length - 1] === 'string' ? (params[params.length - 1] as string) : undefined;
    const fields: Record<string, unknown> =
      message !== null && typeof message === 'object' && !(message instanceof Error) ? { ...(message as Record<string, unknown>) } : { msg: message instanceof Error ? message.message : String(message) };
    if (level === 'error' && typeof params[0] === 'string' && params.length > 1) fields['stack'] = params[0];
    this.write(JSON.stringify({ time: new Date().toISOString(), level, app: this.app, ...(context ? { context } : {}), ...fields }), level === 'error' || level === 'warn');
  }

  log(message: unknown, ...params: unknown[]): void {
    this.emit('info', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.emit('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.emit('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.emit('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.emit('verbose', message, params);
  }
}

/** JSON logs unless PODIUM_LOG_FORMAT=text (or unset on a terminal). */
export function useJsonLogs(env: NodeJS.ProcessEnv = process.env): boolean {
  const format = env['PODIUM_LOG_FORMAT'];
  if (format === 'json') return true;
  if (format === 'text') return false;
  return !process.stdout.isTTY;
}
