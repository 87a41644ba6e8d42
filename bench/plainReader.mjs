// The plain reader the streaming `check` is measured against (issue 24): reads a JSONL file line by
// line, parses every line and pairs each request with its response by id; prints the counts.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

const open = new Map();
let lines = 0;
let paired = 0;
let unmatched = 0;
for await (const line of createInterface({ input: createReadStream(process.argv[2]), crlfDelay: Infinity })) {
  if (line === '') continue;
  lines++;
  const m = JSON.parse(line);
  if (typeof m.method === 'string' && 'id' in m) open.set(JSON.stringify(m.id), m.method);
  else if ('id' in m && ('result' in m || 'error' in m)) {
    if (open.delete(JSON.stringify(m.id))) paired++;
    else unmatched++;
  }
}
console.log(JSON.stringify({ lines, paired, unmatched, open: open.size }));
