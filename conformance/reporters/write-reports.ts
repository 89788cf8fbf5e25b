/**
 * reporters/: a run's results as text: the terminal progress and summary (terminal.ts), JUnit XML
 * (junit.ts), Markdown (markdown.ts), the three files of a run (here), the check of their folder
 * before a run (report-dir.ts).
 * May import the result types of types.ts, the open-question table of openapi/generated/, and
 * common/xml-escape.ts and common/report-file.ts (the one report writer); nothing else, so that any
 * caller of runConformance can report with them.
 */
import { join } from 'node:path';
import { writeReportFile } from '../../common/report-file.js';
import type { RunResult } from '../types.js';
import { junitReport } from './junit.js';
import { markdownReport } from './markdown.js';
import { makeDirectory } from './report-dir.js';

/**
 * Write the three reports of a run into `dir`: conformance.json, conformance.junit.xml, conformance.md,
 * each through a temporary file and a rename; a symbolic link at one of their names is refused.
 *
 * @example
 * const paths = await writeReports(result, 'reports/conformance');
 */
export async function writeReports(run: RunResult, dir: string): Promise<string[]> {
  await makeDirectory(dir);
  const files: Array<readonly [string, string]> = [
    ['conformance.json', `${JSON.stringify(run, null, 2)}\n`],
    ['conformance.junit.xml', junitReport(run)],
    ['conformance.md', markdownReport(run)],
  ];
  for (const [name, text] of files) writeReportFile(join(dir, name), text);
  return files.map(([name]) => join(dir, name));
}
