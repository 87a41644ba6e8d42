// A tiny static server for the built site, mounted at a sub-path to prove the relative base works.
// Usage: node e2e/serve.mjs [port] [subPath]   (defaults: 4321, /mcp-lab/); LAB_DIST=dir serves another build.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(process.env.LAB_DIST ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist'));
const port = Number(process.argv[2] ?? 4321);
const base = process.argv[3] ?? '/mcp-lab/';
const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.wasm': 'application/wasm', '.png': 'image/png', '.ico': 'image/x-icon' };

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (!url.pathname.startsWith(base)) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end(`not under ${base}`);
    return;
  }
  let rel = decodeURIComponent(url.pathname.slice(base.length)) || 'index.html';
  const file = path.resolve(root, rel);
  if (!file.startsWith(root)) {
    res.writeHead(403).end();
    return;
  }
  try {
    const info = await stat(file);
    if (info.isDirectory()) rel = path.join(rel, 'index.html');
    const body = await readFile(info.isDirectory() ? path.join(file, 'index.html') : file);
    res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' }).end(body);
  } catch {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  }
});
server.listen(port, '127.0.0.1', () => console.log(`serving ${root} at http://127.0.0.1:${server.address().port}${base}`));
