/**
 * A webhook receiver as a process of its own (see bench/lib/webhook-receiver.ts): answers every
 * POST with 204 once its body has arrived, and counts them. Its CPU then never runs on the thread
 * of the dispatcher it receives from, as a real receiver's would not.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReceiverMessage, ReceiverReply } from './webhook-receiver.js';

if (!process.send) throw new Error('the webhook receiver runs as a child of the bench (it needs an IPC channel)');
const reply = (message: ReceiverReply) => process.send!(message);

let received = 0;
const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
  req.resume();
  req.on('end', () => {
    received += 1;
    res.writeHead(204).end();
  });
});
server.listen(0, '127.0.0.1', () => {
  reply({ type: 'ready', id: 0, port: (server.address() as AddressInfo).port });
});

process.on('message', (message: ReceiverMessage) => {
  if (message.type === 'count') reply({ type: 'count', id: message.id, received });
});
process.on('disconnect', () => process.exit(0));
