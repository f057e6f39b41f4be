/**
 * The reference of the target: a plain Express 5 app with its defaults, one route on the same
 * path pattern as ours, answering the static JSON body with res.json.
 */
import express from 'express';
import { bodyBytesArgument } from '../lib/protocol.js';
import { jsonOfLength } from '../lib/payload.js';
import { runBenchServer } from '../lib/server-child.js';

const payload = jsonOfLength(bodyBytesArgument());

await runBenchServer(async () => {
  const app = express();
  app.get('/api/org/:orgSlug', (_req, res) => {
    res.json(payload);
  });
  return { handler: app };
});
