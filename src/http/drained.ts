import type { Response } from 'express';

/**
 * Resolves true when a response whose write answered "full" can take more, false when the
 * connection closed first: what every streamed answer waits on between chunks.
 */
export function drained(res: Response): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (more: boolean) => () => {
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(more);
    };
    const onDrain = done(true);
    const onClose = done(false);
    res.once('drain', onDrain);
    res.once('close', onClose);
  });
}
