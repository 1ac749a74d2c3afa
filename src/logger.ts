import {
  pino,
  destination as pinoDestination,
  stdTimeFunctions,
  type Logger,
  type DestinationStream,
} from 'pino';

/** JSON logs, one object per line; keys and tokens are never logged (see requestLog). */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'household-organizer' },
      timestamp: stdTimeFunctions.isoTime,
      redact: { paths: ['req.headers["x-api-key"]', 'apiKey', 'token', 'secret'], remove: true },
    },
    destination ?? pinoDestination({ fd: 1, sync: false }),
  );
}
