// Types of c4solve.mjs, for TypeScript programs that import it.

/** Where a call's search runs, and how long it may: before the first call. */
export interface Settings {
  /** Each board's transposition table, MiB (64 by default). */
  tableMiB?: number;
  /** The limit of analyze, bestMove and review, seconds (0: none, the default). */
  timeoutSeconds?: number;
  /** In a browser, the Web Workers that share an analysis's moves (1 by default). */
  workers?: number;
}

export interface Options {
  /** The board, "WxH" ("7x6" when absent). */
  size?: string;
  /** Stops the search (in a browser: ends its worker). */
  signal?: AbortSignal;
}

/** What c4solve -json prints for a solve. */
export interface Solved {
  pos: string;
  score: number;
  nodes: number;
  seconds: number;
}

/** GET /analyze's answer: each column's score (null: full), the best columns, a line of perfect play. */
export interface Analysis {
  pos: string;
  score: number;
  scores: (number | null)[];
  best: number[];
  pv: string;
  nodes: number;
  seconds: number;
}

/** GET /analyze's answer past the time limit: the bounds found. */
export interface AnalysisIncomplete {
  pos: string;
  incomplete: true;
  lower: number;
  upper: number;
  lows: (number | null)[];
  highs: (number | null)[];
  best_found: number;
  note: string;
  nodes: number;
  seconds: number;
}

/** GET /move's answer: the column (from 1) a player of the level plays. */
export interface Move {
  pos: string;
  level: number;
  column: number;
  exact: boolean;
  score?: number;
  note?: string;
}

export interface ReviewedMove {
  ply: number;
  player: number;
  column: number;
  score: number;
  played: number;
  drop: number;
  loss: number;
  class: "best" | "inaccuracy" | "mistake" | "blunder";
  best: number[];
}

export interface ReviewedPlayer {
  moves: number;
  best: number;
  inaccuracies: number;
  mistakes: number;
  blunders: number;
  accuracy: number | null;
}

/** GET /review's answer. */
export interface Review {
  pos: string;
  moves: ReviewedMove[];
  players: ReviewedPlayer[];
  turning_points: number[];
}

export function configure(settings: Settings): void;
export function solve(pos: string, options?: Options & { nobook?: boolean; clear?: boolean }): Promise<Solved>;
export function analyze(pos: string, options?: Options): Promise<Analysis | AnalysisIncomplete>;
export function bestMove(pos: string, options?: Options & { level?: number; seed?: number }): Promise<Move>;
export function review(pos: string, options?: Options): Promise<Review>;
export function request(
  method: string,
  url: string,
  body?: string,
  options?: { signal?: AbortSignal },
): Promise<{ status: number; type: string; retryAfter: string; body: string }>;
