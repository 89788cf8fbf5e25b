import { request } from 'node:http';

const boundary = '----voicekitbench7f3a';

function multipartHead(fileName: string): Buffer {
  return Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="scene"\r\n\r\naudio\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
      'Content-Type: audio/wav\r\n\r\n',
  );
}
const tail = Buffer.from(`\r\n--${boundary}--\r\n`);

/**
 * Streams a multipart upload of `fileBytes` zero bytes (generated chunk by chunk, never held whole)
 * and resolves with the status and the elapsed milliseconds. Stops sending as soon as the server
 * answers, as a client that honours an early 413 does.
 */
export function streamUpload(
  url: string,
  apiKey: string,
  fileBytes: number,
): Promise<{ status: number; ms: number; sentBytes: number }> {
  const head = multipartHead('big.wav');
  const chunk = Buffer.alloc(1 << 20);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let sent = 0;
    let answered = false;
    const req = request(`${url}/v1/files/upload`, {
      method: 'POST',
      agent: false,
      headers: {
        'x-api-key': apiKey,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': head.length + fileBytes + tail.length,
      },
    });
    req.on('response', (res) => {
      answered = true;
      res.on('error', reject); // cut before its end
      res.resume();
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, sentBytes: sent });
        req.destroy();
      });
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    const pump = () => {
      while (!answered && sent < fileBytes) {
        const n = Math.min(chunk.length, fileBytes - sent);
        sent += n;
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered) req.end(tail);
    };
    req.write(head);
    pump();
  });
}
