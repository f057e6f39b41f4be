/**
 * The reference of the targets: a plain Express 5 app with its defaults, one route per path we
 * load (GET, and POST for admission), each answering from memory with res.json the JSON our
 * server answered there (same bytes).
 */
import express from 'express';
import { answersArgument } from '../lib/protocol.js';
import { runBenchServer } from '../lib/server-child.js';

const answers = answersArgument();

await runBenchServer(async () => {
  const app = express();
  for (const [path, answer] of answers) {
    // Admission is a POST; its body is not read, as a reference answering from memory needs none.
    app.get(path, (_req, res) => {
      res.json(answer);
    });
    app.post(path, (_req, res) => {
      res.json(answer);
    });
  }
  return { handler: app };
});
