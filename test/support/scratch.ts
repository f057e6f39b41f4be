import fs from 'node:fs';
import os from 'node:os';

/** What a test run may put in the RAM-backed directory at most: databases, data dirs, packed tarballs. */
const ROOM_NEEDED = 4 * 1024 ** 3;
const RAM_BACKED = '/dev/shm';

/**
 * Where the tests keep their files: the RAM-backed directory when this machine has one with room
 * to spare, else the system's temporary directory. Test databases run with the server's own
 * settings, every commit flushed to the device, and on a disk that wait was half the time of a
 * write-heavy file. A test never needs the device: the crashes the suite causes are a process's
 * (kill -9), and what a killed process wrote stays in the kernel's files.
 */
export function scratchRoot(): string {
  try {
    fs.accessSync(RAM_BACKED, fs.constants.W_OK);
    const { bavail, bsize } = fs.statfsSync(RAM_BACKED);
    if (bavail * bsize >= ROOM_NEEDED) return RAM_BACKED;
  } catch {
    // No such directory here, or not writable: the system's is as good.
  }
  return os.tmpdir();
}
