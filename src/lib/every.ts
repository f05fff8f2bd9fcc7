import 'server-only';
import { logger } from './logger';

/**
 * Runs `task` every `intervalMs` in this process, never two at once (a run still going when the
 * next is due skips that one); a failure is logged as `failed` and the next run comes as planned.
 * The timer does not keep the process alive. Returns a stop function.
 */
export function runEvery(intervalMs: number, task: () => Promise<void>, failed: string): () => void {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      await task();
    } catch (error) {
      logger.warn({ err: error }, failed);
    } finally {
      running = false;
    }
  };
  const every = setInterval(() => void run(), intervalMs);
  every.unref();
  return () => clearInterval(every);
}
