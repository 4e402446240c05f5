import pino, { type Logger } from 'pino';
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
 * a person watches a terminal (stdout is a TTY).
 */
export function createLogger(level: Env['LOG_LEVEL'], output: LogOutput = { terminal: process.stdout.isTTY === true }): Logger {
  const stream = output.stream ?? process.stdout;
  if (!output.terminal) return pino({ level }, stream);
  return pino({ level }, pretty({ destination: stream, colorize: output.stream === undefined, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }));
}
