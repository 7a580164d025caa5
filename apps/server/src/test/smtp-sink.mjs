// A real SMTP server in its own process, for tests that stop and start the mail server:
// `node smtp-sink.mjs <port> <dir>` keeps each message as an .eml file in <dir>, written before
// the server answers 250, so that a message the client saw accepted is never lost.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';

const [port, dir] = process.argv.slice(2);
let sequence = 0;
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, _session, callback) {
    const chunks = [];
    stream.on('data', (chunk) => chunks.push(chunk));
    stream.on('end', () => {
      const name = `${Date.now()}-${process.pid}-${String(sequence++).padStart(4, '0')}.eml`;
      writeFileSync(path.join(dir, name), Buffer.concat(chunks));
      callback();
    });
  },
});
server.listen(Number(port), '127.0.0.1', () => process.stdout.write('listening\n'));
