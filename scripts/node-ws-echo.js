// A minimal Node `ws` echo server, the comparison point for ws-bench echo.
// Usage: node scripts/node-ws-echo.js PORT   (listens on 127.0.0.1 only)
let ws;
try { ws = require('ws'); } catch { ws = require('/usr/share/nodejs/ws'); }   // Debian's node-ws
const port = Number(process.argv[2] || 9002);
const server = new ws.WebSocketServer({ host: '127.0.0.1', port, perMessageDeflate: false, maxPayload: 64 * 1024 });
server.on('connection', (socket) => socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary })));
server.on('listening', () => console.log(`node ws echo on 127.0.0.1:${port}`));
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0));
