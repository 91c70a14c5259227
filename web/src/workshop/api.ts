// What the workshop sends and gets beyond a game's state; requests go through the page's api()
// (web/src/api.ts), whose ApiError keeps the place a refusal names.
export { api, ApiError, type State } from '../api';

// `test`: the rule-test script (test.yaml) an upload keeps beside the variant.
export interface Draft { yaml: string; scripts: Record<string, string>; test?: string }

export interface TestResult {
  passed: number;
  failed: number;
  cases: { name: string; line: number; passed: boolean; failures: { line: number; column: number; message: string }[] }[];
}
