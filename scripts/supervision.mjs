// How scripts/serve.mjs looks after its server processes (decision 057): a process that dies is
// replaced, at once unless processes keep dying young (a crash loop), and a connection node:cluster
// had handed to a process that died before taking it is closed instead of left open.

/** A server process that dies younger than this counts towards a crash loop. */
export const QUICK_DEATH_MS = 10_000;
/** Quick deaths in a row after which the server stops (exit 1) and leaves the restart to the process manager. */
export const GIVE_UP_AFTER = 10;
const FIRST_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 30_000;

/**
 * How long to wait before replacing a process, given the quick deaths in a row (this one
 * included; 0 when it lived QUICK_DEATH_MS or more): at once for the first two (two processes
 * killed young are bad luck, not yet a loop), then 1 s, 2 s, 4 s … up to 30 s.
 */
export function replacementDelay(quickDeathsInARow) {
  if (quickDeathsInARow <= 2) return 0;
  return Math.min(FIRST_BACKOFF_MS * 2 ** (quickDeathsInARow - 3), MAX_BACKOFF_MS);
}

/**
 * With node:cluster's round-robin scheduling the primary accepts each connection and sends it to a
 * server process, keeping its own copy open until that process answers that it took it. If the
 * process dies first, the answer never comes and the copy stays open: the client waits forever.
 * This wraps the send of one server process (`child`, its ChildProcess) to note the connections in
 * transit; call the returned function when the process has ended: it closes the ones it never
 * took (the client sees the connection closed) and answers how many there were.
 */
export function trackHandoffs(child) {
  const inTransit = new Set();
  const send = child.send;
  child.send = function (message, handle, ...rest) {
    if (handle && message?.cmd === 'NODE_CLUSTER' && message.act === 'newconn') {
      inTransit.add(handle);
      const close = handle.close;
      handle.close = function (...args) {
        inTransit.delete(handle);
        return close.apply(this, args);
      };
    }
    return send.call(this, message, handle, ...rest);
  };
  return () => {
    const count = inTransit.size;
    for (const handle of inTransit) handle.close();
    return count;
  };
}
