import type { ChildProcess } from 'node:child_process';

/** A reply of a bench child process, matched to its request by `id`; a `failed` one says why in `message`. */
export interface IpcReply {
  id: number;
  type: string;
  message?: string;
}

/**
 * Sends `message` (with its `id`) to a bench child and answers the child's reply with the same id.
 * A `failed` reply rejects with `<who>: <its message>`; the child exiting first rejects with `exitMessage`.
 */
export function ask<Reply extends IpcReply>(
  child: ChildProcess,
  message: { id: number },
  who: string,
  exitMessage: string,
): Promise<Exclude<Reply, { type: 'failed' }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (reply: Reply): void => {
      if (reply.id !== message.id) return;
      done();
      if (reply.type === 'failed') reject(new Error(`${who}: ${reply.message}`));
      else resolve(reply as Exclude<Reply, { type: 'failed' }>);
    };
    const onExit = (): void => {
      done();
      reject(new Error(exitMessage));
    };
    const done = (): void => {
      child.off('message', onMessage).off('exit', onExit);
    };
    child.on('message', onMessage).once('exit', onExit);
    child.send(message);
  });
}

/** Ends a bench child unless it has ended already. */
export function stopChild(child: ChildProcess): void {
  if (child.exitCode === null && child.signalCode === null) child.kill();
}
