/**
 * The floor: node:http alone, answering each path with the JSON our server answered there, from
 * memory. It serializes per request, as Express's res.json and our handlers do, so the
 * comparison counts the same JSON work on every server.
 */
import { answersArgument } from '../lib/protocol.js';
import { runBenchServer } from '../lib/server-child.js';

const answers = answersArgument();

await runBenchServer(async () => ({
  handler(req, res) {
    const answer = answers.get(req.url ?? '');
    if (answer === undefined) {
      res.writeHead(404).end();
      return;
    }
    const body = JSON.stringify(answer);
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  },
}));
