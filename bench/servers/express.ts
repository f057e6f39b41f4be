/**
 * The reference of the targets: a plain Express 5 app with its defaults, one route per path we
 * load, each answering from memory with res.json the JSON our server answered there (same bytes).
 */
import express from 'express';
import { answersArgument } from '../lib/protocol.js';
import { runBenchServer } from '../lib/server-child.js';

const answers = answersArgument();

await runBenchServer(async () => {
  const app = express();
  for (const [path, answer] of answers) {
    app.get(path, (_req, res) => {
      res.json(answer);
    });
  }
  return { handler: app };
});
