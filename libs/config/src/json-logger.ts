import { ConsoleLogger, type LoggerService, type LogLevel } from '@nestjs/common';

/**
 * Nest contexts whose lines are start-up detail (one line per controller and route mapped):
 * logged at debug, not info, so a start shows what matters.
 */
export const DEBUG_CONTEXTS: ReadonlySet<string> = new Set(['RoutesResolver', 'RouterExplorer']);

/** Debug and verbose lines are written only with PODIUM_LOG_LEVEL=debug. */
export function debugLogs(env: NodeJS.ProcessEnv = process.env): boolean {
  return env['PODIUM_LOG_LEVEL'] === 'debug';
}

function contextOf(params: unknown[]): string | undefined {
  const last = params[params.length - 1];
  return typeof last === 'string' ? last : undefined;
}

/**
 * One JSON object per line on stdout (errors on stderr): `{"time","level","app","context","msg",…}`,
 * with the fields a caller passes in an object message (`jobId`, `submissionId`, `requestId`).
 * Chosen with PODIUM_LOG_FORMAT=json (the default outside a terminal); `text` keeps Nest's.
 */
export class JsonLogger implements LoggerService {
  constructor(
    private readonly app: string,
    private readonly write: (line: string, isError: boolean) => void = (line, isError) => (isError ? process.stderr : process.stdout).write(line + '\n'),
    private readonly debugEnabled: boolean = debugLogs(),
  ) {}

  private emit(level: string, message: unknown, params: unknown[]): void {
    if ((level === 'debug' || level === 'verbose') && !this.debugEnabled) return;
    const context = contextOf(params);
    const fields: Record<string, unknown> =
      message !== null && typeof message === 'object' && !(message instanceof Error) ? { ...(message as Record<string, unknown>) } : { msg: message instanceof Error ? message.message : String(message) };
    if (level === 'error' && typeof params[0] === 'string' && params.length > 1) fields['stack'] = params[0];
    this.write(JSON.stringify({ time: new Date().toISOString(), level, app: this.app, ...(context ? { context } : {}), ...fields }), level === 'error' || level === 'warn');
  }

  log(message: unknown, ...params: unknown[]): void {
    const context = contextOf(params);
    this.emit(context !== undefined && DEBUG_CONTEXTS.has(context) ? 'debug' : 'info', message, params);
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

/**
 * Nest's readable console lines (PODIUM_LOG_FORMAT=text) with the same levels as
 * {@link JsonLogger}: route mapping at debug, debug and verbose only with PODIUM_LOG_LEVEL=debug.
 */
export class TextLogger extends ConsoleLogger {
  constructor(debugEnabled: boolean = debugLogs()) {
    const levels: LogLevel[] = ['fatal', 'error', 'warn', 'log', ...(debugEnabled ? (['debug', 'verbose'] as const) : [])];
    super({ logLevels: levels });
  }

  override log(message: unknown, ...params: unknown[]): void {
    const context = contextOf(params);
    if (context !== undefined && DEBUG_CONTEXTS.has(context)) super.debug(message, ...params);
    else super.log(message, ...params);
  }
}
