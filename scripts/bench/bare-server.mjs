// The ceiling for Node here: a bare node:http server answering every request with the same bytes
// (the mock's own list response, passed in as a file), with the same headers a JSON API sends.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [port, bodyFile] = process.argv.slice(2);
const body = readFileSync(bodyFile);
const headers = { 'content-type': 'application/json', 'content-length': String(body.length) };
createServer((req, res) => {
  req.resume();
  res.writeHead(200, headers);
  res.end(body);
}).listen(Number(port), '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
