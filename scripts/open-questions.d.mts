import type { OpenQuestion } from '../openapi/contract.js';

/** An `x-open-question` entry with the JSON pointer of the node that defines it and of those that refer to it. */
export interface LocatedOpenQuestion extends OpenQuestion {
  readonly where: string;
  readonly refs: readonly string[];
}

export function collectOpenQuestions(doc: unknown): { questions: LocatedOpenQuestion[]; problems: string[] };
export function renderOpenQuestionsTable(questions: readonly OpenQuestion[]): string;
export function renderLinkedOpenQuestionsTable(
  questions: readonly OpenQuestion[],
  specSections: string,
): string;
export function tableIds(markdown: string): string[];
