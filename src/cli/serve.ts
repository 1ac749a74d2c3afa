/**
 * `serve`: the daemon in the foreground, stopped in order on SIGTERM or SIGINT (within 10 s).
 */
import type { Config } from '../config.js';
import { EXIT } from './exit.js';

export async function serve(config: Config): Promise<number> {
  const { startDaemon } = await import('../server.js');
  const daemon = await startDaemon(config);
  await new Promise<void>((stopped) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      daemon.logger.info({ signal }, `received ${signal}, stopping`);
      // Orderly shutdown must finish within 10 s. These last words go to stderr: the process
      // exits at once, before the asynchronous JSON log could write them.
      setTimeout(() => {
        process.stderr.write('shutdown took too long; exiting\n');
        process.exit(1);
      }, 10_000).unref();
      daemon.close().then(stopped, (err) => {
        process.stderr.write(`shutdown failed: ${String(err)}\n`);
        process.exit(1);
      });
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  return EXIT.ok;
}
