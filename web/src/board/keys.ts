// Palace names points "b10"; chessgroundx keys ranks from '1' upwards through ':' (10), ';' (11)...
// and draws key rank 1 at the bottom, file a on the left (its 'white' orientation). Where a game
// numbers its ranks from the first side's far edge (`board.ranks_from: top`, Janggi), point rank r
// is key rank ranks + 1 - r: the first side sits at the bottom with file a on its left, where the
// game's notation and formation names count from.
import type { Key } from 'chessgroundx/types';
import type { Side, State } from '../api';

type Board = State['board'];

// Its own inverse: a key's rank to the point's, too.
export const keyRank = (board: Board, rank: number) => (board.ranks_from === 'top' ? board.ranks + 1 - rank : rank);
export const toKey = (board: Board, point: string): Key =>
  (point[0] + String.fromCharCode(48 + keyRank(board, Number(point.slice(1))))) as Key;
export const toPoint = (board: Board, key: string): string => key[0] + String(keyRank(board, key.charCodeAt(1) - 48));
export const pointName = (file: number, rank: number) => String.fromCharCode(97 + file) + rank;
// Whether the side's pieces move up the screen when the first side sits at the bottom.
export const drawnUp = (board: Board, side: Side) => (side.forward === 'up') !== (board.ranks_from === 'top');
// The keys of the board's holes (rules/README.md, "holes"): no point, so nothing is drawn,
// pressed or dropped there.
export const holeKeys = (board: Board): Set<string> => new Set(board.holes.map((point) => toKey(board, point)));
