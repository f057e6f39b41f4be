/**
 * The floor: node:http alone, answering every request with the static JSON body.
 * It serializes per request, as Express's res.json and our handlers do, so the
 * comparison counts the same JSON work on every server.
 */
import { bodyBytesArgument } from '../lib/protocol.js';
import { jsonOfLength } from '../lib/payload.js';
import { runBenchServer } from '../lib/server-child.js';

const payload = jsonOfLength(bodyBytesArgument());

await runBenchServer(async () => ({
  handler(_req, res) {
    const body = JSON.stringify(payload);
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  },
}));
