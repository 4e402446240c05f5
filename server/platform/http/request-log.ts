import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Bindings, ChildLoggerOptions, LevelWithSilentOrString, LogFn } from 'pino';
import { redactUrl } from '../logger';

/**
 * Fastify's request logging with one line a request at info instead of two: "request completed"
 * carries the method, path and client too, and "incoming request" moves to debug, for the rare hunt
 * for a request that never finishes. Two JSON lines cost a fifth of a signed-in request's CPU.
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
    request.server.log.debug({ reqId: request.id, method: request.method, url: redactUrl(request.url), remoteAddress: request.ip }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) return super.requestCompleted(error, request, reply);
    request.server.log.info(
      {
        reqId: request.id,
        method: request.method,
        url: redactUrl(request.url),
        remoteAddress: request.ip,
        statusCode: reply.statusCode,
        responseTime: reply.elapsedTime,
      },
      'request completed',
    );
  }

  override routeNotFound(request: FastifyRequest): void {
    request.log.info({ method: request.method, url: redactUrl(request.url) }, 'route not found');
  }
}

/**
 * Fastify's childLoggerFactory: request.log is made only when a request logs something itself.
 * Most requests write nothing but their access line (RequestLog, through the app's logger), and a
 * pino child a request was a third of the cost of logging it (bench:api).
 */
export function lazyRequestLogger(this: unknown, parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
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

  fatal: LogFn = (...args: Parameters<LogFn>) => this.logger.fatal(...args);
  error: LogFn = (...args: Parameters<LogFn>) => this.logger.error(...args);
  warn: LogFn = (...args: Parameters<LogFn>) => this.logger.warn(...args);
  info: LogFn = (...args: Parameters<LogFn>) => this.logger.info(...args);
  debug: LogFn = (...args: Parameters<LogFn>) => this.logger.debug(...args);
  trace: LogFn = (...args: Parameters<LogFn>) => this.logger.trace(...args);
  silent: LogFn = () => {};

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
}
