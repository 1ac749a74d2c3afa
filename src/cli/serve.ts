/**
 * `serve`: the daemon in the foreground, stopped in order on SIGTERM or SIGINT (within 10 s).
 */
import type { Config } from '../config.js';
import { StartupError } from '../startup.js';
import { EXIT } from './exit.js';

export async function serve(config: Config): Promise<number> {
  // The cluster's parts (src/cluster/) are not yet behind the HTTP daemon: starting a lone
  // embedded node while the operator asked for a cluster would look like one and lose its writes.
  if (config.cluster) {
    throw new StartupError(
      'cluster mode is configured but `serve` does not run it yet ' +
        '(docs/scaling.md, "State"); remove the `cluster` section to run one embedded node',
    );
  }
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
