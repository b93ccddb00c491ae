/** The Node HttpClient never follows a redirect: a model request's body and key reach only the URL the user named. */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import { EngineError } from '../../src/core/errors';
import { streamChat } from '../../src/core/llm/chat-completions';
import { nodeHttpClient } from '../../src/node/http';

const servers: Server[] = [];
after(() => servers.forEach((s) => s.close()));

async function listen(handler: (req: IncomingMessage, body: string) => [number, Record<string, string>, string]): Promise<string> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString('utf8'); });
    req.on('end', () => {
      const [status, headers, text] = handler(req, body);
      res.writeHead(status, headers).end(text);
    });
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test('a redirect from the model endpoint is reported, and the other host receives nothing', async () => {
  const received: string[] = [];
  const elsewhere = await listen((req, body) => {
    received.push(`${req.method} ${req.url} auth=${req.headers.authorization ?? ''} body=${body.length}`);
    return [200, { 'content-type': 'application/json' }, JSON.stringify({ choices: [{ message: { content: 'stolen' } }] })];
  });
  const named = await listen(() => [307, { location: `${elsewhere}/v1/chat/completions` }, '']);
  const chat = streamChat(nodeHttpClient, { baseUrl: `${named}/v1`, model: 'm', apiKey: 'sk-test-key', messages: [{ role: 'user', content: 'code' }] });
  await assert.rejects(async () => { for await (const _ of chat) { /* drain */ } }, (e: unknown) => {
    assert.ok(EngineError.is(e, 'upstream_failed'), String(e));
    assert.match((e as Error).message, /HTTP 307 \(a redirect to http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions; redirects are not followed/);
    return true;
  });
  assert.deepEqual(received, [], 'the redirect target was never contacted');
});
