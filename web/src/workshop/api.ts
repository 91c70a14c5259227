// What the workshop sends and gets beyond a game's state; requests go through the page's api()
// (web/src/api.ts), whose ApiError keeps the place a refusal names.
export { api, ApiError, type State } from '../api';

export interface Draft { yaml: string; scripts: Record<string, string> }

export interface TestResult {
  passed: number;
  failed: number;
  cases: { name: string; line: number; passed: boolean; failures: { line: number; column: number; message: string }[] }[];
}
