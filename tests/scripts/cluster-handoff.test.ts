import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * node:cluster's round robin (scripts/serve.mjs) hands each connection to a server process and
 * keeps its own copy open until that process says it took it. A connection handed to a process
 * that then dies without reading it stays open forever: the client hangs (issue 33 saw one).
 * trackHandoffs (scripts/supervision.mjs, decision 057) closes those when the process ends. A real
 * cluster of plain HTTP processes (tests/support/handoff-cluster.mjs); one freezes, gets a
 * connection handed to it, and is SIGKILLed.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function get(port: number, urlPath: string): Promise<string> {
  return new Promise((resolve) => {
    const request = http.request({ host: '127.0.0.1', port, path: urlPath, agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve('answered'));
    });
    request.setTimeout(5_000, () => {
      request.destroy();
      resolve('hanging');
    });
    request.on('error', () => resolve('closed'));
    request.end();
  });
}

/** Freezes one server process, sends six requests on new connections, kills the frozen one: answers their outcomes. */
async function killFrozen(track: boolean, children: ChildProcess[], frozen: number[]): Promise<{ outcomes: string[]; log: () => string }> {
  const cluster = spawn(process.execPath, [path.join(ROOT, 'tests/support/handoff-cluster.mjs')], { env: { ...process.env, HANDOFF_TRACK: track ? '1' : '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(cluster);
  let log = '';
  cluster.stdout!.on('data', (chunk) => (log += chunk));
  const deadline = Date.now() + 30_000;
  while (!log.includes('@@ready') && Date.now() < deadline) await sleep(50);
  const port = Number(/@@ready (\d+)/.exec(log)![1]);
  const frozenRequest = get(port, '/freeze');
  while (!log.includes('@@frozen') && Date.now() < deadline) await sleep(50);
  frozen.push(Number(/@@frozen (\d+)/.exec(log)![1]));
  const requests = Array.from({ length: 6 }, () => get(port, '/'));
  await sleep(1_000); // the healthy process answers; one connection waits, handed to the frozen one
  process.kill(frozen.at(-1)!, 'SIGKILL');
  const outcomes = [await frozenRequest, ...(await Promise.all(requests))];
  return { outcomes, log: () => log };
}

describe('a connection handed to a server process that dies before taking it', () => {
  const children: ChildProcess[] = [];
  const frozen: number[] = [];
  afterEach(() => {
    // The frozen process reads nothing, not even its primary's end: it is killed by pid.
    for (const pid of frozen.splice(0)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already ended
      }
    }
    for (const child of children.splice(0)) child.kill('SIGKILL');
  });

  it('hangs with node:cluster alone (why trackHandoffs exists)', async () => {
    const { outcomes } = await killFrozen(false, children, frozen);
    expect(outcomes.filter((o) => o === 'hanging')).toHaveLength(1);
  }, 60_000);

  it('is closed when the primary tracks the hand-offs, and every other request is answered', async () => {
    const { outcomes, log } = await killFrozen(true, children, frozen);
    expect(outcomes.filter((o) => o === 'hanging')).toEqual([]);
    // The frozen process's own request and the one handed to it are closed; the five others answered.
    expect(outcomes.filter((o) => o === 'closed')).toHaveLength(2);
    expect(outcomes.filter((o) => o === 'answered')).toHaveLength(5);
    const deadline = Date.now() + 5_000;
    while (!log().includes('@@closed') && Date.now() < deadline) await sleep(50);
    expect(log()).toContain('@@closed 1');
  }, 60_000);
});
