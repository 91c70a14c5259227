// Palace names points "b10"; chessgroundx keys ranks from '1' upwards through ':' (10), ';' (11)...
import type { Key } from 'chessgroundx/types';

export const toKey = (point: string): Key => (point[0] + String.fromCharCode(48 + Number(point.slice(1)))) as Key;
export const toPoint = (key: string): string => key[0] + String(key.charCodeAt(1) - 48);
export const pointName = (file: number, rank: number) => String.fromCharCode(97 + file) + rank;
