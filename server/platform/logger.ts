import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';
import type { Env } from './env';

interface LogOutput {
  /** A person reads it: readable lines instead of JSON. */
  terminal: boolean;
  /** Where lines go; stdout unless a test says otherwise. */
  stream?: NodeJS.WritableStream;
}

/**
 * The process's logger: one JSON object a line for log collectors, or readable, coloured lines when
 * a person watches a terminal (stdout is a TTY). Every line is bounded and free of query values
 * (LOG_LIMITS, `safeError`).
 */
export function createLogger(
  level: Env['LOG_LEVEL'],
  output: LogOutput = { terminal: process.stdout.isTTY === true },
): Logger {
  const options = { level, ...BOUNDED_LOGGING };
  if (!output.terminal) return pino(options, output.stream ?? stdoutByTurn());
  const stream = output.stream ?? process.stdout;
  return pino(
    options,
    pretty({
      destination: stream,
      colorize: output.stream === undefined,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname',
    }),
  );
}

/**
 * stdout for log collectors: the lines logged in one turn of the event loop go out together, in one
 * write(2) once the turn's work is done. Under load a write carries the access lines of many requests;
 * on a quiet server a line is written at once. Written synchronously, as pino's own default: a write
 * handed to the thread pool cost more in thread wake-ups than the write itself (bench:api), and a
 * log reader that stops reading holds the server back instead of letting unwritten lines pile up in
 * memory. The lines of the last turn are written when the process exits, also after an uncaught
 * exception; only a SIGKILL can lose them.
 */
function stdoutByTurn(): DestinationStream {
  const out = pino.destination({ dest: 1, sync: true });
  let lines: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (lines.length === 0) return;
    const text = lines.join('');
    lines = [];
    out.write(text);
  };
  process.once('exit', flush);
  return {
    write(line: string) {
      lines.push(line);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
  };
}

/** What one log line may hold: a failed query once wrote 28 MB (an upload as a parameter). */
export const LOG_LIMITS = {
  /** Characters of one string field (a message, a stack, a query's text). */
  fieldChars: 2000,
  /** Characters of all the string fields of one line together; past it, fields read "[truncated]". */
  lineChars: 16_000,
  arrayItems: 20,
  objectKeys: 50,
  depth: 5,
  /** Errors chained by `cause`. */
  causes: 3,
};

const TRUNCATED = '[truncated]';

/** Options every logger of the app gets: errors made safe, every field and line bounded. */
const BOUNDED_LOGGING: LoggerOptions = {
  serializers: {
    err: (value: unknown) => (value instanceof Error ? safeError(value, { left: LOG_LIMITS.lineChars }) : value),
    req: (request: { method?: string; url?: string; ip?: string }) => ({
      method: request.method,
      url: redactUrl(request.url ?? ''),
      remoteAddress: request.ip,
    }),
  },
  formatters: {
    log: (object) => boundFields(object),
  },
  hooks: {
    logMethod(args, method) {
      // log.error(err): pino would take err.message (a failed query's values) as the line's message.
      if (args[0] instanceof Error && args.length === 1)
        args = [args[0], safeMessage(args[0])] as unknown as typeof args;
      for (let i = 0; i < args.length; i++) if (typeof args[i] === 'string') args[i] = capField(args[i] as string);
      return method.apply(this, args);
    },
  },
};

interface Budget {
  left: number;
}

/** A string field cut to LOG_LIMITS.fieldChars, saying how much was left out. */
export const capField = (text: string, limit = LOG_LIMITS.fieldChars): string =>
  text.length > limit ? `${text.slice(0, limit)}… [${text.length - limit} more characters]` : text;

/** A line's fields with every string, array, object and error bounded; the object itself when nothing needed it. */
function boundFields(object: Record<string, unknown>): Record<string, unknown> {
  const budget = { left: LOG_LIMITS.lineChars };
  let out = object;
  for (const key in object) {
    const value = object[key];
    const bounded = bound(value, 0, budget);
    if (bounded !== value) {
      if (out === object) out = { ...object };
      out[key] = bounded;
    }
  }
  return out;
}

function bound(value: unknown, depth: number, budget: Budget): unknown {
  if (typeof value === 'string') {
    if (budget.left <= 0) return value.length > 0 ? TRUNCATED : value;
    const text = capField(value, Math.min(LOG_LIMITS.fieldChars, Math.max(budget.left, 100)));
    budget.left -= text.length;
    return text;
  }
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return safeError(value, budget);
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return `[${value.byteLength} bytes]`;
  if (depth >= LOG_LIMITS.depth || budget.left <= 0) return TRUNCATED;
  if (Array.isArray(value)) {
    const items = value.slice(0, LOG_LIMITS.arrayItems).map((item) => bound(item, depth + 1, budget));
    if (value.length > LOG_LIMITS.arrayItems) items.push(`[${value.length - LOG_LIMITS.arrayItems} more items]`);
    return items.length === value.length && items.every((item, i) => item === value[i]) ? value : items;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  // Dates, requests, replies and other class instances: their own serializers or toJSON say what they are.
  if (proto !== Object.prototype && proto !== null) return value;
  return boundObject(value as Record<string, unknown>, depth, budget);
}

function boundObject(
  object: Record<string, unknown>,
  depth: number,
  budget: Budget,
  skip?: Set<string>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let changed = false;
  let keys = 0;
  for (const key of Object.keys(object)) {
    if (skip?.has(key)) {
      changed = true;
      continue;
    }
    if (++keys > LOG_LIMITS.objectKeys) {
      out['[more keys]'] = Object.keys(object).length - LOG_LIMITS.objectKeys;
      return out;
    }
    out[key] = bound(object[key], depth + 1, budget);
    if (out[key] !== object[key]) changed = true;
  }
  return changed ? out : object;
}

/** A failed query as drizzle reports it (DrizzleQueryError): the query's text and every value it was given. */
interface QueryError extends Error {
  query: string;
  params: unknown;
}

const isQueryError = (err: Error): err is QueryError =>
  typeof (err as Partial<QueryError>).query === 'string' && 'params' in err;

/** PostgreSQL's SQLSTATE class 22 (data exception) quotes the value it refused: "invalid input syntax for type integer: "…"". */
const isDataException = (err: Error): boolean => {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code);
};

/** An error's message without the values it may carry (a failed query's parameters, a refused value), bounded. */
export function safeMessage(err: Error): string {
  if (isQueryError(err)) return `Failed query: ${capField(err.query)}`;
  if (isDataException(err)) return capField(err.message.replace(/"(?:[^"]|"")*"/g, '"[redacted]"'));
  return capField(err.message);
}

/**
 * PostgreSQL's detail repeats the row or key values it refused ("Failing row contains (…)", "Key
 * (email)=(…)"), and its context may quote a parameter ("unnamed portal parameter $1 = '…'").
 */
function safeDetail(detail: unknown): unknown {
  if (typeof detail !== 'string') return detail;
  return detail
    .replace(/^Failing row contains .*/s, 'Failing row contains [redacted]')
    .replace(/\)=\(.*\)/s, ')=([redacted])')
    .replace(/(parameter \$\d+ = )'.*'/s, "$1'[redacted]'");
}

/** Fields kept out of the generic copy: said otherwise (message, stack, cause) or never (params). */
const ERROR_OWN_FIELDS = new Set(['message', 'stack', 'cause', 'params', 'query', 'detail', 'where', 'errors']);

/**
 * An error as a log field, as pino's serializer shapes it (type, message, stack, own fields, cause),
 * but without the values of a failed query (drizzle puts them in `params` and in the message) or
 * PostgreSQL's quoted values, and bounded: the query text and every field capped, causes 3 deep.
 */
export function safeError(
  err: Error,
  budget: Budget = { left: LOG_LIMITS.lineChars },
  depth = 0,
): Record<string, unknown> {
  const message = safeMessage(err);
  const out: Record<string, unknown> = { type: err.constructor?.name ?? err.name, message };
  budget.left -= message.length;
  if (isQueryError(err)) out.query = bound(err.query, 0, budget);
  if (typeof err.stack === 'string') {
    // The stack begins with "Name: message": the message as it was, values and all.
    const frames = err.stack.indexOf('\n    at ');
    out.stack = bound(`${err.name}: ${message}${frames >= 0 ? err.stack.slice(frames) : ''}`, 0, budget);
  }
  const fields = err as unknown as Record<string, unknown>;
  Object.assign(out, boundObject(fields, 0, budget, ERROR_OWN_FIELDS));
  for (const field of ['detail', 'where'])
    if (field in fields) out[field] = bound(safeDetail(fields[field]), 0, budget);
  if (Array.isArray(fields.errors)) out.errors = bound(fields.errors, 1, budget);
  if (err.cause !== undefined) {
    if (depth >= LOG_LIMITS.causes) out.cause = TRUNCATED;
    else out.cause = err.cause instanceof Error ? safeError(err.cause, budget, depth + 1) : bound(err.cause, 1, budget);
  }
  return out;
}

/**
 * Query parameters whose values are secrets (mailed links carry `token`), and values that look like
 * one (long runs of base64url or hex): logged as "[redacted]".
 */
const SECRET_PARAMETER = /token|secret|passw|key|code|sig|auth|session|otp|ticket|nonce|state|jwt|cred/i;
const SECRET_LOOKING_VALUE = /^[A-Za-z0-9_%-]{24,}={0,2}$/;

/** A request URL fit for a log: its path, and its query string with the values of secret parameters redacted. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return capField(url);
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      return SECRET_PARAMETER.test(decodeQueryPart(name)) || SECRET_LOOKING_VALUE.test(value)
        ? `${name}=[redacted]`
        : pair;
    })
    .join('&');
  return capField(`${url.slice(0, q)}?${query}`);
}

function decodeQueryPart(part: string): string {
  try {
    return decodeURIComponent(part.replaceAll('+', ' '));
  } catch {
    return part;
  }
}
