// duel for boardgame.io: the rules of rules/duel/README.md ([D1]-[D5], two seats), written
// for the boardgame.io 0.50 game API, so that a boardgame.io server can be driven the way
// berthier-bench drives berthierd (docs/bench.md, "Against boardgame.io").
//
//   [D1] 2 seats, each with 0 points and a reserve of 10.
//   [D2] each round both seats secretly bid 0-3, no more than their reserve; the bids are
//        revealed together and every stake is spent.
//   [D3] the single highest bidder rolls a d6: the pot; on a tie nobody rolls, the round ends.
//   [D4] the roller banks (pot added to the score) or presses (a d6: 1 loses the pot and ends
//        the round, else it is added to the pot).
//   [D5] the game ends when a seat reaches 20 points or after round 12.
//
// The moves are the same decisions as duel's orders (bid N, bank, press), the dice are the
// server's (moves run on the server only: client: false), and a seat's bid is hidden from
// the other seat until both are in (playerView), as duel seals them. G.moves counts the
// accepted moves, which is what the driver reports per second.
'use strict';

const TARGET = 20, ROUNDS = 12, RESERVE = 10, MAX_BID = 3;
const INVALID_MOVE = 'INVALID_MOVE';

function setup() {
  return { score: [0, 0], reserve: [RESERVE, RESERVE], bids: [null, null], round: 1, phase: 'bid',
           roller: -1, pot: 0, moves: 0, over: null };
}

function nextRound(G) {
  G.round += 1;
  G.bids = [null, null];
  G.roller = -1;
  G.pot = 0;
  G.phase = 'bid';
  checkEnd(G);
}

function checkEnd(G) {
  const won = [0, 1].filter((i) => G.score[i] >= TARGET);
  if (won.length === 1) G.over = { winner: String(won[0]) };
  else if (won.length > 1) G.over = { draw: true };
  else if (G.round > ROUNDS) {
    if (G.score[0] === G.score[1]) G.over = { draw: true };
    else G.over = { winner: G.score[0] > G.score[1] ? '0' : '1' };
  }
  if (G.over) G.phase = 'over';
}

// What seat p may do now: the same list as duel's legal() ([] when it need not act).
function legal(G, p) {
  if (G.over) return [];
  if (G.phase === 'bid') {
    if (G.bids[p] !== null) return [];
    const max = Math.min(MAX_BID, G.reserve[p]);
    const out = [];
    for (let b = 0; b <= max; b++) out.push({ move: 'bid', args: [b] });
    return out;
  }
  if (G.phase === 'roll' && G.roller === p) return [{ move: 'bank', args: [] }, { move: 'press', args: [] }];
  return [];
}

function bid(G, p, stake, d6) {
  if (G.over || G.phase !== 'bid' || G.bids[p] !== null) return INVALID_MOVE;
  if (!Number.isInteger(stake) || stake < 0 || stake > MAX_BID || stake > G.reserve[p]) return INVALID_MOVE;
  G.bids[p] = stake;
  G.moves += 1;
  if (G.bids[1 - p] === null) return G;
  G.reserve[0] -= G.bids[0];
  G.reserve[1] -= G.bids[1];
  if (G.bids[0] === G.bids[1]) { nextRound(G); return G; }
  G.roller = G.bids[0] > G.bids[1] ? 0 : 1;
  G.pot = d6();
  G.phase = 'roll';
  return G;
}

function bank(G, p) {
  if (G.over || G.phase !== 'roll' || G.roller !== p) return INVALID_MOVE;
  G.moves += 1;
  G.score[p] += G.pot;
  checkEnd(G);
  if (!G.over) nextRound(G);
  return G;
}

function press(G, p, d6) {
  if (G.over || G.phase !== 'roll' || G.roller !== p) return INVALID_MOVE;
  G.moves += 1;
  const v = d6();
  if (v === 1) nextRound(G);
  else G.pot += v;
  return G;
}

const seat = (playerID) => (playerID === '0' ? 0 : playerID === '1' ? 1 : -1);

const Duel = {
  name: 'duel',
  minPlayers: 2,
  maxPlayers: 2,
  setup: () => setup(),
  // Every seat may move at any time; the moves themselves refuse what duel's apply refuses.
  turn: { activePlayers: { all: null } },
  moves: {
    bid: { move: ({ G, playerID, random }, stake) => bid(G, seat(playerID), stake, () => random.D6()), client: false },
    bank: { move: ({ G, playerID }) => bank(G, seat(playerID)), client: false },
    press: { move: ({ G, playerID, random }) => press(G, seat(playerID), () => random.D6()), client: false },
  },
  // [D2] sealed bids: the other seat's bid shows only as "in" until both are revealed.
  playerView: ({ G, playerID }) => {
    const p = seat(playerID);
    return { ...G, bids: G.bids.map((b, i) => (i === p || b === null ? b : 'in')) };
  },
  endIf: ({ G }) => (G.over ? G.over : undefined),
};

module.exports = { Duel, setup, legal, bid, bank, press, INVALID_MOVE, TARGET, ROUNDS };
