// The floor of the fairness section: a bare node:http server that answers every POST, once its body is
// read, with BYTES bytes of zeros in chunks of CHUNK bytes (the mock's 100 ms chunk at 24 kHz, 16-bit),
// chunked, one chunk per stream per turn of the event loop (setImmediate), so that streams take turns
// and new requests are read between turns, as the mock's fair turns do, and with backpressure. No
// synthesis: the first byte of 50 such streams at once is what the client, Node's HTTP and the
// machine cost by themselves.
import { createServer } from 'node:http';

const [port, bytes, chunk] = process.argv.slice(2).map(Number);
const zeros = Buffer.alloc(chunk);
createServer((req, res) => {
  req.resume();
  // The bench's readiness probe.
  if (req.method !== 'POST') return void res.writeHead(204).end();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'audio/wav' });
    let left = bytes;
    const pump = () => {
      if (res.destroyed) return;
      if (left <= 0) return void res.end();
      const n = Math.min(chunk, left);
      left -= n;
      if (res.write(n === chunk ? zeros : zeros.subarray(0, n))) setImmediate(pump);
      else res.once('drain', pump);
    };
    pump();
  });
}).listen(port, '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
