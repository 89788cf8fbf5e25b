// The ceiling for Node here: a bare node:http server answering every request with the same bytes
// as the mock (its list body, and its header lines as a flat [name, value, ...] JSON list, passed in
// as files); without the header file, the two a JSON API needs.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [port, bodyFile, headerFile] = process.argv.slice(2);
const body = readFileSync(bodyFile);
const headers = headerFile
  ? JSON.parse(readFileSync(headerFile, 'utf8'))
  : ['content-type', 'application/json', 'content-length', String(body.length)];
createServer((req, res) => {
  req.resume();
  res.writeHead(200, headers);
  res.end(body);
}).listen(Number(port), '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
