// A boardgame.io 0.50.2 server on duel (duel.js), driven like berthier-bench's throughput line:
// GAMES concurrent games, two seats each, every seat a boardgame.io client over socket.io that
// makes a random legal move whenever it must act; a game that ends is replaced by a new one
// through the Lobby API. Prints moves per second over a window of SECONDS once every game has
// started (docs/bench.md, "Against boardgame.io").
//
//   node run.js [--games 64] [--seconds 5] [--port 0]   (the server runs in a child process)
//   node run.js --self-check                              (duel.js alone: no boardgame.io, no network)
'use strict';

const path = require('path');
const { fork } = require('child_process');

function arg(name, dflt) {
  const i = process.argv.indexOf(name);
  return i > 0 && i + 1 < process.argv.length ? process.argv[i + 1] : dflt;
}

// ---- the rules alone: random games, every move checked against legal() -------------------
function selfCheck() {
  const d = require('./duel.js');
  let seed = 12345;
  const rnd = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  const d6 = () => 1 + rnd(6);
  let games = 0, moves = 0, fail = 0;
  for (let g = 0; g < 2000; g++) {
    const G = d.setup();
    let steps = 0;
    while (!G.over && steps++ < 1000) {
      const acts = [0, 1].map((p) => d.legal(G, p));
      const who = [0, 1].filter((p) => acts[p].length);
      if (!who.length) { fail++; break; }
      const p = who[rnd(who.length)];
      const m = acts[p][rnd(acts[p].length)];
      const before = G.moves;
      const r = d[m.move](G, p, ...m.args, d6);
      if (r === d.INVALID_MOVE || G.moves !== before + 1) { fail++; break; }
      // a move outside the list is refused
      if (d.bid(G, 1 - p, 9, d6) !== d.INVALID_MOVE) { fail++; break; }
    }
    if (!G.over || G.round > d.ROUNDS + 1) fail++;
    games++;
    moves += G.moves;
  }
  console.log(`self-check: ${games} random duel games, ${moves} moves (${(moves / games).toFixed(1)} a game), ${fail} failures`);
  process.exit(fail ? 1 : 0);
}

// ---- the server (child process) -----------------------------------------------------------
function serve(port) {
  const { Server, Origins } = require('boardgame.io/server');
  const { Duel } = require('./duel.js');
  const server = Server({ games: [Duel], origins: [Origins.LOCALHOST] });
  server.run({ port, callback: () => process.send({ ready: port }) });
}

// ---- the driver ------------------------------------------------------------------------------
async function drive() {
  const games = Number(arg('--games', '64')), seconds = Number(arg('--seconds', '5'));
  const port = Number(arg('--port', '0')) || 20000 + Math.floor(Math.random() * 20000);
  const child = fork(__filename, ['--serve', String(port)], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  // The server logs each refused move ("invalid stateID": a bid sent against a state the other
  // seat's bid had already moved on, like berthierd's CODE_STALE); counted, not shown.
  let stale = 0, tail = '';
  child.stderr.on('data', (b) => {
    const s = tail + b.toString();
    const lines = s.split('\n');
    tail = lines.pop();
    for (const l of lines) {
      if (l.includes('invalid stateID')) stale++;
      else if (l.trim()) process.stderr.write(`server: ${l}\n`);
    }
  });
  await new Promise((ok, ko) => {
    child.on('message', (m) => m && m.ready && ok());
    child.on('exit', (c) => ko(new Error(`server exited ${c}`)));
  });
  const { Client } = require('boardgame.io/client');
  const { SocketIO } = require('boardgame.io/multiplayer');
  const { Duel, legal } = require('./duel.js');
  const base = `http://localhost:${port}`;
  const post = async (url, body) => {
    const r = await fetch(base + url, { method: 'POST', headers: { 'content-type': 'application/json' },
                                        body: JSON.stringify(body) });
    if (!r.ok) throw new Error(`${url}: ${r.status}`);
    return r.json();
  };

  let counting = false, windowMoves = 0, finished = 0, started = 0, errors = 0;
  let seedState = 0x2545f491;
  const rnd = (n) => { seedState ^= seedState << 13; seedState ^= seedState >>> 17; seedState ^= seedState << 5;
                       return (seedState >>> 0) % n; };

  async function newGame(slot) {
    const { matchID } = await post('/games/duel/create', { numPlayers: 2 });
    const clients = [];
    let seen = 0, done = false;
    for (const playerID of ['0', '1']) {
      const { playerCredentials } = await post(`/games/duel/${matchID}/join`, { playerID, playerName: `p${playerID}` });
      const c = Client({ game: Duel, multiplayer: SocketIO({ server: base, socketOpts: { transports: ['websocket'] } }), matchID, playerID,
                         credentials: playerCredentials, debug: false });
      let acted = -1;
      c.subscribe((st) => {
        if (!st || done) return;
        if (st.G.moves > seen) {   // G.moves is the game's own count of accepted moves
          if (counting) windowMoves += st.G.moves - seen;
          seen = st.G.moves;
        }
        if (st.ctx.gameover) {
          done = true;
          finished++;
          setImmediate(() => { clients.forEach((x) => x.stop()); newGame(slot).catch(fail); });
          return;
        }
        if (st._stateID === acted) return;   // one move per state the seat sees
        const acts = legal(st.G, Number(playerID));
        if (!acts.length) return;
        acted = st._stateID;
        const m = acts[rnd(acts.length)];
        c.moves[m.move](...m.args);
      });
      clients.push(c);
    }
    clients.forEach((c) => c.start());
    started++;
  }
  const fail = (e) => { errors++; if (errors < 5) console.error(`compare: ${e.message || e}`); };

  await Promise.all(Array.from({ length: games }, (_, i) => newGame(i)));
  await new Promise((ok) => setTimeout(ok, 500));   // every game's clients connected and synced
  counting = true;
  const t0 = process.hrtime.bigint(), f0 = finished;
  await new Promise((ok) => setTimeout(ok, seconds * 1000));
  counting = false;
  const el = Number(process.hrtime.bigint() - t0) / 1e9;
  const perS = windowMoves / el;
  console.log(JSON.stringify({ games, seconds: el, moves: windowMoves, moves_per_s: perS,
                               finished: finished - f0, stale_refused: stale, errors }));
  child.kill('SIGKILL');
  process.exit(errors ? 1 : 0);
}

if (process.argv.includes('--self-check')) selfCheck();
else if (process.argv.includes('--serve')) serve(Number(arg('--serve', '0')));
else drive().catch((e) => { console.error(`compare: ${e.stack || e}`); process.exit(1); });
