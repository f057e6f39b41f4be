import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { DescriptorLogOutput, StreamLogOutput } from '../../src/log/log-output.js';

const line = `${'x'.repeat(99)}\n`;

describe('StreamLogOutput', () => {
  it('drops and counts lines past its bound while the reader stalls, and resumes when it drains', async () => {
    const notices: string[] = [];
    const stream = new PassThrough({ highWaterMark: 100 });
    const output = new StreamLogOutput(stream, 1_000, (notice) => notices.push(notice));
    for (let i = 0; i < 50; i++) output.write(line);
    expect(output.dropped).toBeGreaterThan(0);
    expect(output.dropped).toBeLessThan(50);
    expect(notices).toEqual([expect.stringMatching(/^log output stalled/)]);

    const dropped = output.dropped;
    let read = '';
    stream.on('data', (chunk) => (read += chunk));
    await output.settle(60_000);
    expect(notices).toHaveLength(2);
    expect(notices[1]).toBe(`log output resumed; ${dropped} log lines were dropped while it stalled`);
    output.write('after\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(read.endsWith('after\n')).toBe(true);
    expect(output.dropped).toBe(dropped);
  });

  it('survives a failed stream: no error escapes, later lines are dropped and counted', async () => {
    const notices: string[] = [];
    const broken = new Writable({
      write(_chunk, _encoding, callback) {
        callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      },
    });
    const output = new StreamLogOutput(broken, 1_000_000, (notice) => notices.push(notice));
    output.write(line);
    await new Promise((resolve) => setImmediate(resolve));
    expect(() => output.write(line)).not.toThrow();
    expect(output.dropped).toBe(1);
    expect(notices).toEqual(['log output failed (EPIPE); log lines are dropped from now on']);
    await output.settle(60_000);
  });
});

describe('DescriptorLogOutput', () => {
  it('drops a line whose write fails and says so once', () => {
    const notices: string[] = [];
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hub-log-')), 'log');
    const fd = fs.openSync(file, 'w');
    const output = new DescriptorLogOutput(fd, (notice) => notices.push(notice));
    output.write('one\n');
    fs.closeSync(fd);
    output.write('lost\n');
    output.write('lost\n');
    expect(output.dropped).toBe(2);
    expect(notices).toEqual(['log output failed (EBADF); log lines are dropped']);
    expect(fs.readFileSync(file, 'utf8')).toBe('one\n');
  });
});
