// nimlab explorer: The page's shared state: the table shown, class mode, the game in play, the challenge.

import { family } from "./controls.js";

export const view = {
  table: null, // {dims, values (flat, first coordinate fastest), max}
  info: null,
  players: null, // n-player games: the number of players (values are classes)
  zoom: 1, panX: 0, panY: 0,
  selected: null, // [x, y]
  cursor: null, // keyboard cursor [x, y]
  highlighted: { winning: [], others: [] },
  mismatches: [],
  fixed: [], // the slice: coordinates beyond the first two
  labels: [], // the coordinate labels drawn: {axis, value, x, y} (canvas pixels)
  palette: "classic",
  generation: 0, // bumped by every new table: answers about an older one are dropped
  wrap: 10, // one-heap tables: heaps per row of the strip (the period when it is short)
  period: null, // one-heap tables: {period, preperiod, saltus, proven} from /api/table
  family: null, // the catalog family of the spec as typed (from /api/game)
  declared: "", // the formula the game's source declares (not written in the link)
};

/** Class mode hides the answers (values, colours, P-positions, move values) until the
 *  teacher reveals them; the presenter view has large type and reveals the mex step by
 *  step. */
export const classroom = { on: false, revealed: false, presenter: false };

/** Whether the answers are hidden now. */
export const hidden = () => classroom.on && !classroom.revealed;

/** The selected position's answer while it is revealed step by step (class mode or the
 *  presenter view): `e` the explanation (or the n-player moves report), `k` the options
 *  whose values are shown; the value itself comes after the last option. */
export const reveal = { e: null, k: 0, pos: null, nplayer: false };

/** The answer about the selected cell (shown in full when nothing is hidden). */
export const cellAnswer = { e: null, pos: null, nplayer: false };

// `turn`: the seat to move (0 = the first player); `you`: the seat the person holds.
export const game = { spec: null, pos: null, turn: 0, you: 0, players: 2, history: [], over: true, report: null, bar: null, family: "", id: 0 };

export const challenge = { list: [], i: 0, score: 0, answered: 0, fields: null, params: null, done: false };
