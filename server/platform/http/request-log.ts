import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import pino, { type Bindings, type ChildLoggerOptions, type LevelWithSilentOrString, type LogFn } from 'pino';
import { capField, redactUrl } from '../logger';
import { SAFE_METHODS } from './security';

/**
 * Fastify's request logging, as ADR 036 decides: one "request completed" line a request, carrying
 * the method, path and client too, at info for every request worth reading later (a change, a
 * refusal or failure, a slow answer) and at debug for a quick, successful read ("incoming request"
 * moves to debug too, for the rare hunt for a request that never finishes).
 * Its fields are flat: pino writes plain values far faster than nested objects (bench:api).
 * URLs are logged with the values of secret query parameters redacted: mailed reset and verification
 * links carry live tokens (`redactUrl`). Errors and everything else Fastify logs stay as they are.
 * Both lines go through the app's logger with the request id as a field, the same line request.log
 * would write, without making request.log's child logger for it (lazyRequestLogger).
 */
const BELOW_INFO = new Set(['debug', 'trace']);

export class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    // Checked first: at info, the line's fields would be worked out on every request for nothing.
    if (!BELOW_INFO.has(request.server.log.level)) return;
    request.server.log.debug(
      { reqId: request.id, method: request.method, url: redactUrl(request.url), remoteAddress: request.ip },
      'incoming request',
    );
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) return super.requestCompleted(error, request, reply);
    writeAccessLine(request.server.log as unknown as PinoParts, request, reply);
  }

  override routeNotFound(request: FastifyRequest): void {
    request.log.info({ method: request.method, url: redactUrl(request.url) }, 'route not found');
  }
}

const INFO = 30; // pino's numbers for info and debug
const DEBUG = 20;
/** An answer this slow is logged at info whatever it was: someone waited for it. */
export const SLOW_ANSWER_MS = 1000;

/**
 * The access line's level (ADR 036): info for a change (any method but GET, HEAD and OPTIONS), a
 * refusal or failure (status 400 and up) and a slow answer; debug for a quick, successful read, the
 * bulk of the traffic (pages, assets, polling, API reads), which says nothing a reader needs.
 */
export function accessLineLevel(method: string, statusCode: number, elapsedMs: number): number {
  return SAFE_METHODS.has(method) && statusCode < 400 && elapsedMs < SLOW_ANSWER_MS ? DEBUG : INFO;
}

/** What a pino logger keeps under the symbols pino exports for this (pino.symbols). */
interface PinoParts {
  levelVal: number;
  [pino.symbols.timeSym]: () => string; // ',"time":…', as the logger's timestamp option says
  [pino.symbols.chindingsSym]: string; // ',"pid":…,"hostname":…' and the bindings of its children
  [pino.symbols.streamSym]: { write(line: string): unknown };
}

/**
 * The access line at accessLineLevel, written as pino would write `log.info({ reqId, method, url,
 * remoteAddress, statusCode, responseTime }, 'request completed')` (or log.debug: same keys, order,
 * time and bindings; the response time to the microsecond), but put together here: the one line
 * every request may write, and pino's generic path (hooks, the bounding formatter, a serializer
 * look-up per key) was a tenth of a signed-in request's CPU (bench:api).
 * Every value is bounded here instead: the URL by redactUrl, the request id (a client may send its
 * own) to LOG_LIMITS.fieldChars; method and address are short by the HTTP parser's rules.
 */
function writeAccessLine(log: PinoParts, request: FastifyRequest, reply: FastifyReply): void {
  const elapsed = reply.elapsedTime;
  const level = accessLineLevel(request.method, reply.statusCode, elapsed);
  if (log.levelVal > level) return;
  const line =
    `{"level":${level}${log[pino.symbols.timeSym]()}${log[pino.symbols.chindingsSym]}` +
    `,"reqId":${JSON.stringify(capField(String(request.id)))},"method":${JSON.stringify(request.method)}` +
    `,"url":${JSON.stringify(redactUrl(request.url))},"remoteAddress":${JSON.stringify(request.ip)}` +
    `,"statusCode":${reply.statusCode},"responseTime":${millis(elapsed)},"msg":"request completed"}\n`;
  log[pino.symbols.streamSym].write(line);
}

/**
 * Milliseconds to the microsecond, as `String(Math.round(ms * 1000) / 1000)` would write them, from
 * integers: writing a fraction's shortest digits was half of the access line's cost (a sub-millisecond
 * time has 15 of them, which no reader needs).
 */
export function millis(ms: number): string {
  const micros = Math.round(ms * 1000);
  const whole = Math.floor(micros / 1000);
  let fraction = micros - whole * 1000;
  if (fraction === 0) return String(whole);
  let digits = 3;
  while (fraction % 10 === 0) {
    fraction /= 10;
    digits--;
  }
  return `${whole}.${String(fraction).padStart(digits, '0')}`;
}

/**
 * Fastify's childLoggerFactory: request.log is made only when a request logs something itself.
 * Most requests write nothing but their access line (RequestLog, through the app's logger), and a
 * pino child a request was a third of the cost of logging it (bench:api).
 */
export function lazyRequestLogger(
  this: unknown,
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyChildLogger(parent, bindings, options) as unknown as FastifyBaseLogger;
}

class LazyChildLogger {
  private made?: FastifyBaseLogger;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get logger(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  get level(): LevelWithSilentOrString {
    return this.made?.level ?? this.parent.level;
  }

  set level(level: LevelWithSilentOrString) {
    this.logger.level = level;
  }

  // Methods, not arrow-function fields: those were eight closures made for every request.
  fatal(...args: Parameters<LogFn>): void {
    this.logger.fatal(...args);
  }
  error(...args: Parameters<LogFn>): void {
    this.logger.error(...args);
  }
  warn(...args: Parameters<LogFn>): void {
    this.logger.warn(...args);
  }
  info(...args: Parameters<LogFn>): void {
    this.logger.info(...args);
  }
  debug(...args: Parameters<LogFn>): void {
    this.logger.debug(...args);
  }
  trace(...args: Parameters<LogFn>): void {
    this.logger.trace(...args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
}
